/**
 * What tracing costs the gateway: CPU per `GET /healthz` of three gateway processes, run in turn
 * and in rounds on the same machine in one run:
 *
 * - `before`: the gateway of a commit without tracing (`--before-ref`, default `main`), extracted
 *   with `git archive` into a temporary folder that shares this checkout's node_modules;
 * - `off`: this checkout, no OTEL_* variables (tracing off, the default);
 * - `on`: this checkout exporting every span to an OTLP/HTTP receiver in this process.
 *
 *   npx tsx --conditions=development bench/gateway/tracing-overhead.ts [--requests 20000]
 *     [--rounds 3] [--connections 10] [--before-ref main]
 *
 * CPU is the gateway process's own (user + system, from /proc), divided by the requests it
 * answered; autocannon and the receiver run in this process. Each variant's figure is the
 * median of its rounds; the report gives `off / before` and `on / off`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startOtlpReceiver, startTestInfra } from '@inventory/local-infra';
import autocannon from 'autocannon';
import { cpuMs } from '../lib/proc.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    'before-ref': { type: 'string', default: 'main' },
  },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The code at `ref` in a temporary folder, its node_modules this checkout's (workspaces its own). */
function checkoutOf(ref: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-tracing-before-'));
  execFileSync('bash', ['-c', `git archive "${ref}" | tar -x -C "${dir}"`], { cwd: repoRoot });
  mkdirSync(join(dir, 'node_modules'));
  for (const entry of readdirSync(join(repoRoot, 'node_modules'))) {
    // Workspace links are relative (../../libs/...), so copied they point into the old tree.
    if (entry === '@inventory')
      cpSync(join(repoRoot, 'node_modules', entry), join(dir, 'node_modules', entry), {
        recursive: true,
        verbatimSymlinks: true,
      });
    else symlinkSync(join(repoRoot, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  return dir;
}

async function startGateway(
  root: string,
  env: NodeJS.ProcessEnv,
  port: number,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--import', 'tsx', 'gateway/src/main.ts'],
    {
      cwd: root,
      env: { ...process.env, ...env, HTTP_PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  // Logs are at `warn` (as in production benches): ready is when /healthz answers.
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return { child, url };
    if (attempt > 600) throw new Error('gateway did not start within a minute');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill()),
  );

function load(url: string, amount: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) =>
    autocannon(
      { url: `${url}/healthz`, connections: Number(values.connections), amount },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

const infra = await startTestInfra({ mongo: false });
const receiver = await startOtlpReceiver();
const before = checkoutOf(values['before-ref']!);
const common = {
  LOG_LEVEL: 'warn',
  REDIS_URL: infra.redisUrl,
  NATS_URL: infra.natsUrl,
  // /healthz calls no service; the addresses only have to parse.
  ...Object.fromEntries(
    [
      'IDENTITY',
      'PARCEL_TRACKING',
      'WEBHOOK_INGEST',
      'OUTBOUND_DELIVERY',
      'ACTIVITY',
      'CATALOG',
    ].map((name, index) => [`${name}_GRPC_ADDRESS`, `127.0.0.1:${29100 + index}`]),
  ),
};
const variants = {
  before: { root: before, env: common },
  off: { root: repoRoot, env: common },
  on: { root: repoRoot, env: { ...common, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } },
};
const load1 = loadavg()[0]!;
const microsPerRequest: Record<string, number[]> = { before: [], off: [], on: [] };
try {
  for (let round = 0; round < rounds; round++) {
    for (const [index, [name, variant]] of Object.entries(variants).entries()) {
      const gateway = await startGateway(variant.root, variant.env, 29200 + index);
      try {
        await load(gateway.url, 2_000); // warm-up: JIT, connections
        const cpuBefore = cpuMs(gateway.child.pid!);
        const result = await load(gateway.url, requests);
        const answered = result['2xx'];
        if (answered !== requests) throw new Error(`${name}: ${answered}/${requests} answered 2xx`);
        microsPerRequest[name]!.push(((cpuMs(gateway.child.pid!) - cpuBefore) * 1000) / answered);
      } finally {
        await stop(gateway.child);
      }
    }
  }
} finally {
  await receiver.stop();
  await infra.stop();
  rmSync(before, { recursive: true, force: true });
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const figures = Object.fromEntries(
  Object.entries(microsPerRequest).map(([name, list]) => [name, median(list)]),
);
console.log(
  JSON.stringify(
    {
      machine: { cpus: cpus().length, node: process.version, load1_at_start: load1 },
      requests_per_round: requests,
      rounds,
      gateway_cpu_us_per_healthz: microsPerRequest,
      median_us: figures,
      off_over_before: Number((figures.off! / figures.before!).toFixed(3)),
      on_over_off: Number((figures.on! / figures.off!).toFixed(3)),
      spans_received_by_the_collector: receiver.spans.length,
      load1_at_end: loadavg()[0],
    },
    null,
    2,
  ),
);
