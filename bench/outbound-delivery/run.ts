/**
 * Signed outbound deliveries per second to a local receiver, against a bare HTTP client
 * sending the same requests (no signing, no bookkeeping) measured in the same run.
 *
 *   npx tsx --conditions=development bench/outbound-delivery/run.ts [--count 3000] [--concurrency 32] [--port-base 47000]
 *
 * outbound-delivery runs as its own process (as `npm start` runs it), with the per-tenant cap
 * raised for the run; NATS and Redis are real servers, MongoDB the embedded one (in this process,
 * or MONGO_URL). The receiver runs here and answers 204. Events are published here as fast as
 * NATS takes them; the clock runs from the first publish to the last delivery received, so the
 * figure covers fan-out, scheduling, signing, the POST and the bookkeeping of every attempt.
 * CPU per delivery is the service process's own (from /proc), the baseline's is the bare
 * client process's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { OutboundDeliveryServiceClient } from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import { domainEventEntry } from '@inventory/events';
import { startEmbeddedMongo } from '@inventory/mongo-embedded';
import {
  freePort,
  spawnServiceMain,
  startNatsServer,
  startRedisServer,
  startTestInfra,
  type TestInfra,
} from '@inventory/local-infra';
import { connectNats, createGrpcClient, EventPublisher, runWithContext } from '@inventory/platform';
import { cpuMs, descendants, treeCpuMs } from '../lib/proc.js';
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
const portAt = (offset: number) => (portBase > 0 ? portBase + offset : 0);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const TENANT = 'bench-tenant';

/**
 * CPU of every process of the run: this one (the receiver, the embedded MongoDB, the publisher),
 * and its children (the service, nats-server, redis-server, the bare client).
 */
const allCpuMs = () => {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000 + treeCpuMs(process.pid) - cpuMsOf(process.pid);
};

/**
 * The same CPU split by process, to see whose cost a change moved: this process holds the
 * receiver, the publisher and the embedded MongoDB.
 */
const cpuByProcess = (servicePid: number): Record<string, number> => {
  const own = process.cpuUsage();
  const split: Record<string, number> = {
    'bench (receiver, MongoDB, publisher)': (own.user + own.system) / 1000,
    service: 0,
    'nats-server': 0,
    'redis-server': 0,
  };
  for (const child of descendants(process.pid)) {
    const name =
      child.pid === servicePid
        ? 'service'
        : /nats-server/.test(child.cmdline)
          ? 'nats-server'
          : /redis-server/.test(child.cmdline)
            ? 'redis-server'
            : undefined;
    if (name) split[name]! += cpuMs(child.pid);
  }
  return split;
};

/** utime + stime of a process, in ms (Linux). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** startTestInfra's servers on fixed ports (`--port-base`). */
async function infraAt(base: number): Promise<TestInfra> {
  const root = mkdtempSync(join(tmpdir(), 'outbound-bench-'));
  const nats = await startNatsServer({ port: base + 2, dataDir: join(root, 'nats') });
  const redis = await startRedisServer({ port: base + 3, dataDir: join(root, 'redis') });
  const mongo = process.env.MONGO_URL ? undefined : await startEmbeddedMongo({ port: base + 4 });
  return {
    natsUrl: nats.url,
    redisUrl: redis.url,
    mongoUrl: process.env.MONGO_URL ?? mongo!.url,
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
await new Promise<void>((resolve) => receiver.listen(portAt(0), '127.0.0.1', resolve));
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

const infra = portBase > 0 ? await infraAt(portBase) : await startTestInfra();
const grpcPort = portBase > 0 ? portAt(1) : await freePort();
// node itself (not the tsx wrapper), so /proc/<pid> is the service's own CPU; its compiled
// JavaScript, as production runs it (see launchSystem in ../lib/system.ts).
buildPackages();
const service = await spawnServiceMain('services/outbound-delivery/dist/main.js', {
  // BENCH_PROFILE_DIR=<dir> writes a CPU profile of the service there.
  nodeArgs: process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [],
  onLine: (line) => {
    if (process.env.BENCH_SHOW_LOGS) process.stderr.write(`${line}\n`);
  },
  env: {
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
  const nats = await connectNats(infra.natsUrl, 'bench-publisher');
  const publisher = new EventPublisher(nats.jetstream());
  const data = { id: 1, sku: 'SKU-1', name: 'A product', price: '9.90', tags: ['a', 'b'] };

  // Warm-up: JIT, connections, indexes.
  for (let i = 0; i < 100; i++) {
    const { type, event } = domainEventEntry({ tenantId: TENANT, name: 'product.created', data });
    await publisher.publish(type, event);
  }
  await untilReceived(100);

  const bodyBytes = 150 + JSON.stringify(data).length;
  const loadBefore = loadavg()[0]!;
  const cpuBefore = cpuMsOf(service.child.pid!);
  const allCpuBefore = allCpuMs();
  const splitBefore = cpuByProcess(service.child.pid!);
  const started = performance.now();
  const target = received + count;
  const publishing = (async () => {
    let next = 0;
    const publishSome = async () => {
      while (next < count) {
        next++;
        const { type, event } = domainEventEntry({
          tenantId: TENANT,
          name: 'product.created',
          data,
        });
        await publisher.publish(type, event);
      }
    };
    await Promise.all(Array.from({ length: publishWindow }, publishSome));
  })();
  await publishing;
  const publishedMs = performance.now() - started;
  const receivedWhenPublished = received - (target - count);
  await untilReceived(target);
  const signedMs = performance.now() - started;
  const signedCpuMs = cpuMsOf(service.child.pid!) - cpuBefore;
  const signedAllCpuMs = allCpuMs() - allCpuBefore;
  const splitAfter = cpuByProcess(service.child.pid!);
  await nats.drain();

  const bareAllCpuBefore = allCpuMs();
  const bare = await new Promise<{ requests: number; elapsedMs: number; cpuMs: number }>(
    (resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          `${repoRoot}bench/outbound-delivery/bare-client.ts`,
          `${receiverUrl}/bare`,
          String(count),
          String(concurrency),
          String(bodyBytes),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('exit', (code) =>
        code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(out)),
      );
    },
  );
  // The bare client's own CPU (it reads it itself before exiting) and the receiver's share here;
  // the child has exited, so the tree no longer counts it.
  const bareAllCpuMs = allCpuMs() - bareAllCpuBefore + bare.cpuMs;
  const loadAfter = loadavg()[0]!;

  const signedRate = (count / signedMs) * 1000;
  const bareRate = (bare.requests / bare.elapsedMs) * 1000;
  const rows = [
    ['signed deliveries/s (end to end)', signedRate.toFixed(0)],
    ['bare client requests/s', bareRate.toFixed(0)],
    ['signed / bare', `${((signedRate / bareRate) * 100).toFixed(1)} % (target >= 50 %)`],
    ['service CPU per delivery', `${((signedCpuMs / count) * 1000).toFixed(0)} µs`],
    ['bare client CPU per request', `${((bare.cpuMs / bare.requests) * 1000).toFixed(0)} µs`],
    ['CPU per delivery, all processes', `${((signedAllCpuMs / count) * 1000).toFixed(0)} µs`],
    [
      'CPU per bare request, all processes',
      `${((bareAllCpuMs / bare.requests) * 1000).toFixed(0)} µs (client + receiver)`,
    ],
    [
      'all-process CPU, signed / bare',
      (signedAllCpuMs / count / (bareAllCpuMs / bare.requests)).toFixed(1),
    ],
    ...Object.keys(splitAfter).map((name) => [
      `  of which ${name}`,
      `${(((splitAfter[name]! - splitBefore[name]!) / count) * 1000).toFixed(0)} µs`,
    ]),
    ['load average (1 min) before, after', `${loadBefore.toFixed(1)}, ${loadAfter.toFixed(1)}`],
    [
      'all published after',
      `${publishedMs.toFixed(0)} ms (${receivedWhenPublished} delivered by then)`,
    ],
    ['target >= 1,000 signed/s', signedRate >= 1000 ? 'met' : 'NOT met'],
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
