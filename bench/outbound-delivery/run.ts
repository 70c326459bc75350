/**
 * Signed outbound deliveries per second to a local receiver, against a bare HTTP client
 * sending the same requests (no signing, no bookkeeping) measured in the same run.
 *
 *   npx tsx --conditions=development bench/outbound-delivery/run.ts [--count 3000] [--concurrency 32] [--port-base 47000]
 *
 * Every part is its own process, as in production: outbound-delivery (compiled, with the
 * per-tenant cap raised for the run), the embedded MongoDB (in memory; or MONGO_URL), nats-server,
 * redis-server, the publisher (./publisher.ts, another area), and this one, the receiver, which
 * answers 204. Two measurements of the same number of deliveries:
 *
 * - live: the publisher publishes while the service delivers; the clock runs from the first
 *   publish to the last delivery received;
 * - from a backlog: the service is stopped (SIGSTOP) while the events are published, then resumed;
 *   the clock runs from the resume to the last delivery received (its own rate, with the machine
 *   to itself, as after an outage).
 *
 * Both cover fan-out, the cap, signing, the POST and the row of every delivery. The bare client
 * (./bare-client.ts) sends the same number of requests of the same size. CPU per delivery is given
 * for the service alone, for every process, and split by process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { OutboundDeliveryServiceClient } from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import {
  freePort,
  spawnServiceMain,
  spawnUntilReady,
  startNatsServer,
  startRedisServer,
  type TestInfra,
} from '@inventory/local-infra';
import { createGrpcClient, runWithContext } from '@inventory/platform';
import { cpuMs, descendants, treeCpuMs } from '../lib/proc.js';
import { startPublisher } from '../lib/event-publisher.js';
import { buildPackages } from '../lib/system.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '32' },
    // Publishes awaiting their acks at once: one at a time, the publisher was the bottleneck.
    'publish-window': { type: 'string', default: '64' },
    // Fixed ports from here up (receiver, gRPC, NATS, Redis, MongoDB), so runs beside others on
    // a shared machine stay in their own range; 0 lets the kernel pick.
    'port-base': { type: 'string', default: '0' },
  },
});
const count = Number(values.count);
const concurrency = Number(values.concurrency);
const publishWindow = Number(values['publish-window']);
const portBase = Number(values['port-base']);
const portAt = async (offset: number) => (portBase > 0 ? portBase + offset : freePort());
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const TENANT = 'bench-tenant';

/**
 * CPU of every process of the run: this one (the receiver), and its children (the service,
 * MongoDB, nats-server, redis-server, the publisher, the bare client).
 */
const allCpuMs = () => {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000 + treeCpuMs(process.pid) - cpuMs(process.pid);
};

/**
 * The same CPU split by process, to see whose cost a change moved (the publisher's is added from
 * its own report: it has exited by the time this is read).
 */
const cpuByProcess = (servicePid: number): Record<string, number> => {
  const own = process.cpuUsage();
  const split: Record<string, number> = {
    'bench (the receiver)': (own.user + own.system) / 1000,
    service: 0,
    MongoDB: 0,
    'nats-server': 0,
    'redis-server': 0,
  };
  for (const child of descendants(process.pid)) {
    const name =
      child.pid === servicePid
        ? 'service'
        : /mongo-embedded/.test(child.cmdline)
          ? 'MongoDB'
          : /nats-server/.test(child.cmdline)
            ? 'nats-server'
            : /redis-server/.test(child.cmdline)
              ? 'redis-server'
              : undefined;
    if (name) split[name]! += cpuMs(child.pid);
  }
  return split;
};

/**
 * NATS, Redis and MongoDB (the embedded one in memory, unless MONGO_URL), each its own process as
 * in production, so no part's CPU hides in another's and none shares a thread with the receiver.
 */
async function startInfra(): Promise<TestInfra> {
  const root = mkdtempSync(join(tmpdir(), 'outbound-bench-'));
  const nats = await startNatsServer({ port: await portAt(2), dataDir: join(root, 'nats') });
  const redis = await startRedisServer({ port: await portAt(3), dataDir: join(root, 'redis') });
  const mongoPort = await portAt(4);
  const mongo = process.env.MONGO_URL
    ? undefined
    : await spawnUntilReady({
        command: process.execPath,
        args: [`${repoRoot}libs/mongo-embedded/dist/cli/main.js`, '--port', String(mongoPort)],
        readyPattern: /mongo-embedded ready/,
      });
  return {
    natsUrl: nats.url,
    redisUrl: redis.url,
    mongoUrl: process.env.MONGO_URL ?? `mongodb://127.0.0.1:${mongoPort}`,
    dbName: (prefix) => `${prefix}_bench`,
    async stop() {
      await mongo?.stop();
      await redis.stop();
      await nats.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

let received = 0;
let onReceived: (() => void) | undefined;
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    received++;
    onReceived?.();
    response.writeHead(204).end();
  });
});
const receiverPort = await portAt(0);
await new Promise<void>((resolve) => receiver.listen(receiverPort, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
const untilReceived = (target: number) =>
  new Promise<void>((resolve) => {
    if (received >= target) return resolve();
    onReceived = () => {
      if (received >= target) {
        onReceived = undefined;
        resolve();
      }
    };
  });

// node itself (not the tsx wrapper), so /proc/<pid> is the service's own CPU; its compiled
// JavaScript, as production runs it (see launchSystem in ../lib/system.ts).
buildPackages();
const infra = await startInfra();
const grpcPort = await portAt(1);
const service = await spawnServiceMain('services/outbound-delivery/dist/main.js', {
  // BENCH_PROFILE_DIR=<dir> writes there a CPU profile of the service draining the backlog (the
  // gateway bench's preload, started by SIGUSR2; the profile is written when the service exits).
  nodeArgs: process.env.BENCH_PROFILE_DIR
    ? ['--import', `${repoRoot}bench/gateway/cpu-profile-preload.mjs`]
    : [],
  onLine: (line) => {
    if (process.env.BENCH_SHOW_LOGS) process.stderr.write(`${line}\n`);
  },
  env: {
    ...(process.env.BENCH_PROFILE_DIR
      ? {
          BENCH_CPU_PROFILE_DIR: process.env.BENCH_PROFILE_DIR,
          BENCH_CPU_PROFILE_MAIN: 'services/outbound-delivery',
          BENCH_CPU_PROFILE_NAME: 'outbound-delivery',
        }
      : {}),
    LOG_LEVEL: 'info',
    MONGO_URL: infra.mongoUrl,
    MONGO_DB: infra.dbName('outbound_delivery'),
    NATS_URL: infra.natsUrl,
    REDIS_URL: infra.redisUrl,
    GRPC_PORT: String(grpcPort),
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_RATE_PER_MINUTE: String(count * 10),
    DELIVERY_CONCURRENCY: String(concurrency),
    DELIVERY_POLL_MS: '50',
  },
});

/** Runs a bench script as its own process and resolves to the JSON line it prints last. */
function runChild<T>(args: string[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=development',
        ...args.map((a, i) => (i === 0 ? `${repoRoot}${a}` : a)),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as T) : reject(new Error(out)),
    );
  });
}

/** The data each delivery carries: the record ./publisher.ts publishes, as outbound-delivery maps it. */
const PRODUCT = {
  id: 1,
  sku: 'SKU-1',
  name: 'A product',
  type: 'standard',
  barcode: null,
  price: '9.90',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

/** A publisher of `n` `catalog.product.created` events for the bench tenant, its own process (../lib/event-publisher.ts). */
const publisherOf = (n: number) => startPublisher(infra.natsUrl, TENANT, n, publishWindow);

/** CPU spent while `run` runs: the service's, every process's, and each part's. */
async function measured<T>(servicePid: number, run: () => Promise<T>) {
  const serviceBefore = cpuMs(servicePid);
  const allBefore = allCpuMs();
  const splitBefore = cpuByProcess(servicePid);
  const started = performance.now();
  const result = await run();
  const elapsedMs = performance.now() - started;
  const splitAfter = cpuByProcess(servicePid);
  const split = Object.fromEntries(
    Object.keys(splitAfter).map((name) => [name, splitAfter[name]! - splitBefore[name]!]),
  );
  return {
    result,
    elapsedMs,
    serviceCpuMs: cpuMs(servicePid) - serviceBefore,
    allCpuMs: allCpuMs() - allBefore,
    split,
  };
}

try {
  const client = createGrpcClient(OutboundDeliveryServiceClient, `127.0.0.1:${grpcPort}`, {
    deadlineMs: 10_000,
  });
  await runWithContext({ requestId: 'bench', tenantId: TENANT }, () =>
    client.call.createSubscription({
      url: `${receiverUrl}/hook`,
      events: ['product.created'],
      input_violations: [],
    }),
  );
  client.close();
  const pid = service.child.pid!;
  // Warm-up: JIT, connections, indexes.
  await (await publisherOf(100)).go();
  await untilReceived(100);
  const loadBefore = loadavg()[0]!;

  // Live: the publisher and the service side by side, as when other areas emit while the
  // service delivers. The publisher's CPU is its own report (it has exited when the split is read).
  const livePublisher = await publisherOf(count);
  const publisherStartupCpuMs = livePublisher.startupCpuMs();
  let receivedWhenPublished = 0;
  const live = await measured(pid, async () => {
    const target = received + count;
    const published = await livePublisher.go();
    receivedWhenPublished = received - (target - count);
    await untilReceived(target);
    return published;
  });
  // The tree counted the publisher's start-up at the start and nothing of it at the end.
  live.allCpuMs += publisherStartupCpuMs + live.result.cpuMs;
  live.split.publisher = live.result.cpuMs;

  // From a backlog: the service stopped (SIGSTOP) while the events are published, then resumed.
  // The rate at which it drains them is its own, with the whole machine to itself, as after an
  // outage of the receivers or of the service.
  process.kill(pid, 'SIGSTOP');
  const backlogTarget = received + count;
  try {
    await (await publisherOf(count)).go();
  } finally {
    if (process.env.BENCH_PROFILE_DIR) process.kill(pid, 'SIGUSR2');
    process.kill(pid, 'SIGCONT');
  }
  const backlog = await measured(pid, () => untilReceived(backlogTarget));

  const bodyBytes = 150 + JSON.stringify(PRODUCT).length;
  const bare = await measured(pid, () =>
    runChild<{ requests: number; elapsedMs: number; cpuMs: number }>([
      'bench/outbound-delivery/bare-client.ts',
      `${receiverUrl}/bare`,
      String(count),
      String(concurrency),
      String(bodyBytes),
    ]),
  );
  // The bare client's own CPU (it reads it itself before exiting) and the receiver's share here;
  // the child has exited, so the tree no longer counts it.
  const bareAllCpuMs = bare.allCpuMs + bare.result.cpuMs;
  const loadAfter = loadavg()[0]!;

  const bareRate = (bare.result.requests / bare.result.elapsedMs) * 1000;
  const bareCpuPerRequest = bareAllCpuMs / bare.result.requests;
  const µs = (ms: number) => `${((ms / count) * 1000).toFixed(0)} µs`;
  const figures = (run: Omit<typeof backlog, 'result'>) => {
    const rate = (count / run.elapsedMs) * 1000;
    return [
      ['signed deliveries/s (end to end)', rate.toFixed(0)],
      ['signed / bare', `${((rate / bareRate) * 100).toFixed(1)} % (target >= 50 %)`],
      ['target >= 1,000 signed/s', rate >= 1000 ? 'met' : 'NOT met'],
      ['service CPU per delivery', µs(run.serviceCpuMs)],
      ['CPU per delivery, all processes', µs(run.allCpuMs)],
      ['all-process CPU, signed / bare', (run.allCpuMs / count / bareCpuPerRequest).toFixed(1)],
      ...Object.entries(run.split)
        .filter(([, ms]) => ms > 0)
        .map(([name, ms]) => [`  of which ${name}`, µs(ms)]),
    ];
  };
  const rows = [
    ['bare client requests/s', bareRate.toFixed(0)],
    ['bare client CPU per request', `${((bare.result.cpuMs / count) * 1000).toFixed(0)} µs`],
    [
      'CPU per bare request, all processes',
      `${(bareCpuPerRequest * 1000).toFixed(0)} µs (client + receiver)`,
    ],
    ['live, the publisher beside the service', ''],
    ...figures(live),
    [
      '  all published after',
      `${live.result.elapsedMs.toFixed(0)} ms (${receivedWhenPublished} delivered by then)`,
    ],
    [`from a backlog of ${count} events`, ''],
    ...figures(backlog),
    ['load average (1 min) before, after', `${loadBefore.toFixed(1)}, ${loadAfter.toFixed(1)}`],
  ];
  process.stdout.write(
    `outbound-delivery bench: ${count} deliveries, concurrency ${concurrency}\n` +
      rows.map(([name, value]) => `  ${name!.padEnd(46)} ${value}`).join('\n') +
      '\n',
  );
} finally {
  await service.stop();
  await infra.stop();
  receiver.closeAllConnections();
  receiver.close();
}
