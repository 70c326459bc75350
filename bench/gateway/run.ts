/**
 * Authenticated `GET /api/user` through the gateway (tenant from Host, token
 * check, Redis rate limit, gRPC to identity, request log) against a bare Fastify
 * hello-world, in the same run on this machine.
 *
 *   npx tsx --conditions=development bench/gateway/run.ts [--duration 10] [--connections 20]
 *
 * On other hardware (a cluster, say), point it at servers already running instead:
 *
 *   BENCH_TOKEN='<id>|<secret>' npx tsx --conditions=development bench/gateway/run.ts \
 *     --gateway http://gateway:8080 --host acme.example.com [--bare http://bare:3000]
 *
 * The token comes from the environment so it stays out of the process list; it needs a
 * platform rate limit high enough for the run (RATE_LIMIT_PER_MINUTE). Without `--bare` the
 * hello-world runs here, as `bench/lib/bare-server.ts` does anywhere.
 *
 * The system runs as `npm start` runs it: every part its own process (launcher on
 * ports away from the defaults), logs at `warn`. The bare server is a process of
 * its own too, and autocannon runs here, so no measured server shares an event
 * loop with the load generator. The platform limit is raised for the run so the
 * 1,000/min budget does not answer 429; the limiter still runs on every request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openLoop } from '../lib/paced.js';
import {
  fixedRateFigures,
  latencyTargetMet,
  TARGET_THROUGHPUT_RATIO,
  throughputRatio,
} from './report.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    gateway: { type: 'string' },
    host: { type: 'string' },
    bare: { type: 'string' },
  },
});
if (values.gateway && (!values.host || !process.env.BENCH_TOKEN))
  throw new Error('--gateway needs --host and a BENCH_TOKEN in the environment');
const duration = Number(values.duration);
const connections = Number(values.connections);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) =>
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

function startUntil(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve({ child, match });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) =>
      reject(new Error(`${command} exited with ${code}:\n${output.slice(-2000)}`)),
    );
  });
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null
      ? resolve()
      : (child.once('exit', () => resolve()), child.kill('SIGINT')),
  );

const dataDir = mkdtempSync(join(tmpdir(), 'bench-gateway-'));
const gatewayPort = 28080;
const tsx = ['--conditions=development', '--import', 'tsx'];
const bare = values.bare
  ? undefined
  : await startUntil(process.execPath, [...tsx, 'bench/lib/bare-server.ts'], {}, /BARE (\d+)/);
const system = values.gateway
  ? undefined
  : await startUntil(
      process.execPath,
      [...tsx, 'tools/dev/src/main.ts'],
      {
        DEV_PORT_BASE: '28000',
        DEV_GATEWAY_PORT: String(gatewayPort),
        DEV_DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        NO_COLOR: '1',
        RATE_LIMIT_PER_MINUTE: '1000000000',
      },
      /\[dev\] ready:/,
    );
try {
  const dev: { host: string; token: string } = values.gateway
    ? { host: values.host!, token: process.env.BENCH_TOKEN! }
    : JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8'));
  const gatewayBase = values.gateway?.replace(/\/$/, '') ?? `http://127.0.0.1:${gatewayPort}`;
  const bareUrl = values.bare ?? `http://127.0.0.1:${bare!.match[1]}/`;
  const gateway = {
    url: `${gatewayBase}/api/user`,
    headers: { host: dev.host, authorization: `Bearer ${dev.token}`, accept: 'application/json' },
  };
  const check = await run({ ...gateway, amount: 50, connections: 1 });
  if (check.non2xx > 0)
    throw new Error(`the gateway answered non-2xx during warm-up (${check.non2xx})`);

  // Warm both (JIT, connection pools), then measure.
  await run({ url: bareUrl, duration: 3, connections });
  const bareResult = await run({ url: bareUrl, duration, connections });
  await run({ ...gateway, duration: 3, connections });
  const gatewayResult = await run({ ...gateway, duration, connections });
  const healthResult = await run({
    url: `${gatewayBase}/healthz`,
    duration,
    connections,
  });
  const fixed = async (rate: number) =>
    fixedRateFigures(rate, await run({ ...gateway, duration, connections: 50, overallRate: rate }));
  const ratio = throughputRatio(gatewayResult, bareResult);
  // autocannon's fixed rate gives every connection its own timer, so the 50 connections fire
  // together: bursts of 50 every 50 ms. Kept for comparison; the target is judged on an evenly
  // paced open-loop load, latency counted from when each request was due.
  const atThousand = await fixed(1000);
  const atFiveHundred = await fixed(500);
  const paced = (rate: number) =>
    openLoop({
      url: gateway.url,
      headers: gateway.headers,
      ratePerSecond: rate,
      durationSeconds: duration,
    });
  const pacedFiveHundred = await paced(500);
  const pacedThousand = await paced(1000);
  console.log(
    JSON.stringify(
      {
        machine: { cpus: cpus().length, node: process.version },
        bare_hello_world: {
          req_per_s: Math.round(bareResult.requests.average),
          p50_ms: bareResult.latency.p50,
          p99_ms: bareResult.latency.p99,
        },
        gateway_healthz_no_auth: {
          req_per_s: Math.round(healthResult.requests.average),
          ratio_to_bare:
            Math.round((healthResult.requests.average / bareResult.requests.average) * 1000) / 1000,
        },
        gateway_get_api_user: {
          req_per_s: Math.round(gatewayResult.requests.average),
          p50_ms: gatewayResult.latency.p50,
          p99_ms: gatewayResult.latency.p99,
          non_2xx: gatewayResult.non2xx,
        },
        throughput_ratio: ratio,
        ratio_target_met: ratio >= TARGET_THROUGHPUT_RATIO,
        fixed_rate_paced: [pacedFiveHundred, pacedThousand],
        p99_target_met_at_1000: latencyTargetMet(pacedThousand),
        fixed_rate_autocannon_bursts: [atFiveHundred, atThousand],
      },
      null,
      2,
    ),
  );
} finally {
  if (system) await stop(system.child);
  if (bare) await stop(bare.child);
  rmSync(dataDir, { recursive: true, force: true });
}
