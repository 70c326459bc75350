/**
 * Provider webhooks pushed through the gateway as fast as the machine takes them, then counted
 * (issue 13 "Performance and loss"): accepted webhooks/s, p99 acknowledgement latency,
 * end-to-end processed/s, CPU per webhook summed over every process, and loss/doubling —
 * against a bare Fastify JSON POST measured in the same run.
 *
 *   npx tsx --conditions=development bench/webhooks/run.ts [--count 50000] [--connections 20]
 *
 * The system runs as `npm start` runs it (every part its own process, logs at warn). Each push
 * carries a new tracking number, signed with the development key, so every acknowledged push
 * must end as exactly one row with a final result in webhook-ingest's database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import mongoose from 'mongoose';
import { cpuMs as processCpuMs, descendants, treeCpuMs } from '../lib/proc.js';
import { pushWebhooks } from '../lib/provider-webhook.js';
import { buildPackages, processName, runsPackage } from '../lib/system.js';
import { summariseProfile, type CpuProfile } from '../gateway/profile-summary.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '50000' },
    connections: { type: 'string', default: '20' },
    'drain-timeout': { type: 'string', default: '900' },
    // Ports from here (as DEV_PORT_BASE), away from npm start's and other benches', and below
    // Linux's ephemeral range (32768+), where outgoing connections took them at random.
    'port-base': { type: 'string', default: '23000' },
    // Parts that profile themselves over the measured pushes (comma list of PROFILED's keys);
    // profiling slows every process, so read its shares, never this run's rates.
    profile: { type: 'string', default: '' },
  },
});
const PROFILED: Record<string, string> = {
  gateway: 'gateway',
  'webhook-ingest': 'services/webhook-ingest',
  'parcel-tracking': 'services/parcel-tracking',
  mongo: 'libs/mongo-embedded',
};
const profiled = values.profile ? values.profile.split(',').map((part) => PROFILED[part]!) : [];
if (profiled.includes(undefined!))
  throw new Error(`--profile takes parts among ${Object.keys(PROFILED).join(', ')}`);
const profileDir = profiled.length > 0 ? mkdtempSync(join(tmpdir(), 'bench-webhooks-prof-')) : '';
const count = Number(values.count);
const connections = Number(values.connections);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const tsx = ['--conditions=development', '--import', 'tsx'];
const PORT_BASE = Number(values['port-base']);
const GATEWAY_PORT = PORT_BASE + 80;

function startUntil(args: string[], env: NodeJS.ProcessEnv, ready: RegExp) {
  return new Promise<{ child: ChildProcess; match: RegExpExecArray }>((resolve, reject) => {
    const child = spawn(process.execPath, [...tsx, ...args], {
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
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output.slice(-2000)}`)));
  });
}
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null
      ? resolve()
      : (child.once('exit', () => resolve()), child.kill('SIGINT')),
  );
/** CPU ms of the system's processes by name (service, gateway, MongoDB, NATS...). */
function cpuByProcess(root: number): Map<string, number> {
  const byName = new Map([['launcher', processCpuMs(root)]]);
  for (const info of descendants(root)) {
    const name = processName(info.cmdline);
    byName.set(name, (byName.get(name) ?? 0) + processCpuMs(info.pid));
  }
  return byName;
}

/** `amount` signed pushes, each a fresh number (and sign), over `--connections`. */
const pushes = (url: string, host: string, amount: number, apiKey: string, prefix: string) =>
  pushWebhooks({ url, host, amount, apiKey, prefix, connections });

const dataDir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
buildPackages();
const bare = await startUntil(['bench/lib/bare-server.ts'], {}, /BARE (\d+)/);
const system = await startUntil(
  ['tools/dev/src/main.ts'],
  {
    DEV_PORT_BASE: String(PORT_BASE),
    DEV_GATEWAY_PORT: String(GATEWAY_PORT),
    DEV_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NO_COLOR: '1',
    // As production runs it: compiled, plain node (see launchSystem in ../lib/system.ts).
    DEV_RUN: process.env.DEV_RUN || 'compiled',
    ...(profiled.length > 0
      ? {
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${fileURLToPath(new URL('../gateway/cpu-profile-preload.mjs', import.meta.url))}`,
          BENCH_CPU_PROFILE_DIR: profileDir,
          BENCH_CPU_PROFILE_MAIN: profiled.join(','),
        }
      : {}),
  },
  /\[dev\] ready:/,
).catch(async (error: unknown) => {
  await stop(bare.child);
  throw error;
});
try {
  const dev = JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8')) as {
    host: string;
    token: string;
    provider_api_key: string;
    mongo_url: string;
  };
  const gateway = `http://127.0.0.1:${GATEWAY_PORT}`;
  const created = await new Promise<{ data: { id: number; webhook_url: string } }>(
    (resolve, reject) => {
      // node:http, not fetch: the tenant's Host must be sent as is.
      import('node:http').then(({ request }) => {
        const body = JSON.stringify({ name: 'Bench', api_key: dev.provider_api_key });
        const req = request(
          `${gateway}/api/integrations/parcel-tracking/instances`,
          {
            method: 'POST',
            headers: {
              host: dev.host,
              authorization: `Bearer ${dev.token}`,
              'content-type': 'application/json',
              accept: 'application/json',
            },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () =>
              res.statusCode === 201 ? resolve(JSON.parse(text)) : reject(new Error(text)),
            );
          },
        );
        req.end(body);
      }, reject);
    },
  );
  const hookUrl = `${gateway}${new URL(created.data.webhook_url).pathname}`;
  const bareUrl = `http://127.0.0.1:${bare.match[1]}/`;
  const warm = Math.min(1000, Math.ceil(count / 10));

  await pushes(bareUrl, 'bare', warm, dev.provider_api_key, 'WARMBARE');
  const bareCpuBefore = treeCpuMs(bare.child.pid!);
  const bareResult = await pushes(bareUrl, 'bare', count, dev.provider_api_key, 'BARE');
  const bareCpu = treeCpuMs(bare.child.pid!) - bareCpuBefore;

  const mongo = await mongoose
    .createConnection(dev.mongo_url, { dbName: 'webhook_ingest' })
    .asPromise();
  const rows = mongo.collection('webhook_events');
  await pushes(hookUrl, dev.host, warm, dev.provider_api_key, 'WARM');
  for (const info of descendants(system.child.pid!))
    if (profiled.some((pkg) => runsPackage(info.cmdline, pkg))) process.kill(info.pid, 'SIGUSR2');
  const cpuBefore = treeCpuMs(system.child.pid!);
  const byProcessBefore = cpuByProcess(system.child.pid!);
  const loadBefore = loadavg()[0]!;
  const started = performance.now();
  const result = await pushes(hookUrl, dev.host, count, dev.provider_api_key, 'BENCH');
  const ingestSeconds = (performance.now() - started) / 1000;
  const acknowledged = result['2xx'];
  // Drain: every stored row of this run gets its one final result.
  const deadline = Date.now() + Number(values['drain-timeout']) * 1000;
  let pending = Infinity;
  while (Date.now() < deadline) {
    pending = await rows.countDocuments({ tracking_number: /^BENCH/, state: 'received' });
    if (pending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const endToEndSeconds = (performance.now() - started) / 1000;
  const cpuMs = treeCpuMs(system.child.pid!) - cpuBefore;
  const byProcess = [...cpuByProcess(system.child.pid!)]
    .map(([name, ms]) => [name, ms - (byProcessBefore.get(name) ?? 0)] as const)
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1]);
  const loadAfter = loadavg()[0]!;
  const stored = await rows.countDocuments({ tracking_number: /^BENCH/ });
  const distinct = (await rows.distinct('tracking_number', { tracking_number: /^BENCH/ })).length;
  const byResult = await rows
    .aggregate([
      { $match: { tracking_number: /^BENCH/ } },
      { $group: { _id: '$result', n: { $sum: 1 } } },
    ])
    .toArray();
  await mongo.close();
  const acceptedPerSecond = acknowledged / ingestSeconds;
  const bareRate = bareResult.requests.average;
  console.log(
    JSON.stringify(
      {
        machine: {
          cpus: cpus().length,
          node: process.version,
          load_average_1m_before_after: [loadBefore, loadAfter].map((load) => +load.toFixed(1)),
        },
        pushed: count,
        bare_json_post: {
          req_per_s: Math.round(bareRate),
          p99_ms: bareResult.latency.p99,
          cpu_ms_per_request: Math.round((bareCpu / count) * 1000) / 1000,
        },
        webhooks: {
          acknowledged,
          non_2xx: result.non2xx,
          status_codes: Object.fromEntries(
            Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [
              code,
              stats.count,
            ]),
          ),
          errors: result.errors,
          accepted_per_s: Math.round(acceptedPerSecond),
          p99_ack_ms: result.latency.p99,
          processed_per_s_end_to_end: Math.round(stored / endToEndSeconds),
          cpu_ms_per_webhook_all_processes:
            Math.round((cpuMs / Math.max(1, acknowledged)) * 1000) / 1000,
          cpu_ms_per_webhook_by_process: Object.fromEntries(
            byProcess.map(([name, ms]) => [
              name,
              Math.round((ms / Math.max(1, acknowledged)) * 1000) / 1000,
            ]),
          ),
          rows: stored,
          distinct_numbers: distinct,
          still_pending_after_drain: pending,
          results: Object.fromEntries(byResult.map((entry) => [entry._id, entry.n])),
        },
        ratio_accepted_to_bare: Math.round((acceptedPerSecond / bareRate) * 1000) / 1000,
        target_ratio_met: acceptedPerSecond / bareRate >= 0.25,
        lost: Math.max(0, acknowledged - distinct),
        doubled: stored - distinct,
        processing_kept_up_within_10_percent: stored / endToEndSeconds >= 0.9 * acceptedPerSecond,
      },
      null,
      2,
    ),
  );
} finally {
  await stop(system.child);
  await stop(bare.child);
  rmSync(dataDir, { recursive: true, force: true });
}
for (const file of profiled.length > 0 ? readdirSync(profileDir) : []) {
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
  process.stderr.write(`\n== ${join(profileDir, file)}\n${summariseProfile(profile, 30)}\n`);
}
