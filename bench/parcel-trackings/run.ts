/**
 * The parcel-tracking trackings list through the gateway on an instance with 100,000 rows:
 * p50/p95 of a filtered, sorted page and of `per_page=1` counts, beside the gateway's own
 * `/healthz` in the same run, plus the CPU time per request of the gateway, parcel-tracking and
 * the embedded MongoDB, and the MongoDB process's memory.
 *
 *   npx tsx --conditions=development bench/parcel-trackings/run.ts [--rows 100000] [--checkpoints 10] [--requests 300]
 *
 * `--cases dashboard,shipment` measures only those (and `/healthz`, the baseline); `--log FILE`
 * keeps the system's log lines.
 *
 * The system runs as `npm start` runs it (every part its own process, ports away from the
 * defaults, logs at `warn`), from its build as the images run it (`launchSystem`, as the table;
 * `DEV_RUN=source` measures the sources through tsx instead). Rows are inserted straight into
 * parcel-tracking's database, already registered and freshly polled so the background workers
 * leave them alone. Requests are sent one at a time (latency, not throughput, is the target).
 */
import { appendFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { cpuMs, rssMb } from '../lib/proc.js';
import { launchSystem, type DevFile } from '../lib/system.js';
import { settleUntilIdle } from '../table/measure.js';
import { seedTrackings } from './seed.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '300' },
    'warm-up': { type: 'string', default: '100' },
    checkpoints: { type: 'string', default: '10' },
    // A comma-separated subset of the cases (healthz is always measured: it is the baseline).
    cases: { type: 'string' },
    // A file the system's own log lines go to (its level is `warn`), to see what a failure was.
    log: { type: 'string' },
  },
});
const CHECKPOINTS = Number(values.checkpoints);
const ROWS = Number(values.rows);
const REQUESTS = Number(values.requests);
const WARM_UP = Number(values['warm-up']);

function call(dev: DevFile, method: string, path: string, body?: unknown) {
  return new Promise<{ status: number; body: string; ms: number }>((resolve, reject) => {
    const started = process.hrtime.bigint();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port: gatewayPort,
        method,
        path,
        headers: {
          host: dev.host,
          authorization: `Bearer ${dev.token}`,
          accept: 'application/json',
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
        agent: keepAlive,
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: text,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
const { Agent } = await import('node:http');
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(dev: DevFile, path: string, pids: Record<string, number>) {
  // Unmeasured, so the processes have compiled this path's code before the clock starts, as
  // every row of the bench table is warmed first.
  for (let i = 0; i < WARM_UP; i++) await call(dev, 'GET', path);
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const times: number[] = [];
  const failures: Record<string, number> = {};
  // The first body of each non-200 status, so a failure says what it was.
  const failureBodies: Record<string, string> = {};
  let last = { status: 0, body: '{}' };
  for (let i = 0; i < REQUESTS; i++) {
    const response = await call(dev, 'GET', path);
    // A non-200 (e.g. a gRPC deadline passed under load: 503) is counted and reported.
    if (response.status !== 200) {
      failures[response.status] = (failures[response.status] ?? 0) + 1;
      failureBodies[response.status] ??= response.body.slice(0, 500);
    } else last = response;
    times.push(response.ms);
  }
  times.sort((a, b) => a - b);
  const cpu = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [
      name,
      Math.round(((cpuMs(pid) - before[name]!) / REQUESTS) * 100) / 100,
    ]),
  );
  const total = (JSON.parse(last.body) as { meta?: { total?: number } }).meta?.total;
  const result = {
    path,
    p50_ms: Math.round(percentile(times, 50) * 100) / 100,
    p95_ms: Math.round(percentile(times, 95) * 100) / 100,
    // The spread around the target: whether a miss is a slow path or scheduling on two cores.
    p10_p90_p99_ms: [10, 90, 99].map((p) => Math.round(percentile(times, p) * 100) / 100),
    cpu_ms_per_request: cpu,
    ...(total === undefined ? {} : { total }),
    ...(Object.keys(failures).length > 0
      ? { non_200: failures, non_200_first_bodies: failureBodies }
      : {}),
  };
  process.stderr.write(`${JSON.stringify(result)}\n`);
  return result;
}

const system = await launchSystem(
  29000,
  {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    // The background workers' sweeps would share the two cores with the measured requests.
    TRACKING_WORKER_INTERVAL_MS: '0',
    SHIPMENT_WATCH_INTERVAL_MS: '0',
  },
  values.log ? (chunk) => appendFileSync(values.log!, chunk) : undefined,
);
// Where launchSystem put the gateway (its port base + 80).
const gatewayPort = Number(new URL(system.gatewayUrl).port);
try {
  const { dev } = system;
  const created = await call(dev, 'POST', '/api/integrations/parcel-tracking/instances', {
    name: 'Bench',
    api_key: dev.provider_api_key,
  });
  if (created.status !== 201) throw new Error(`connect failed: ${created.status} ${created.body}`);
  const instanceId = (JSON.parse(created.body) as { data: { id: number } }).data.id;
  const seedStarted = Date.now();
  await seedTrackings(dev.mongo_url, dev.tenant_id, instanceId, ROWS, CHECKPOINTS);
  const seedSeconds = Math.round((Date.now() - seedStarted) / 100) / 10;

  const processes = system.processes();
  const pids = Object.fromEntries(
    Object.entries({
      gateway: processes.gateway,
      parcel_tracking: processes['parcel-tracking'],
      mongo: processes.mongo,
    }).filter((entry): entry is [string, number] => entry[1] !== undefined),
  );
  // The seeding's tail (the embedded MongoDB journals and compacts a million documents) would
  // otherwise land in the first cases' CPU and latency: nothing is measured before it has ended.
  const idle = await settleUntilIdle(() => pids, {
    windowSeconds: 5,
    minWindows: 4,
    maxWindows: 36,
  });
  process.stderr.write(
    `idle after seeding: ${idle.msPerSecond.join(' → ')} ms of CPU per second${idle.steady ? '' : ' (still moving; measured anyway)'}, last ${JSON.stringify(idle.last)}\n`,
  );
  const base = `/api/integrations/parcel-tracking/instances/${instanceId}/trackings`;
  const cases: Record<string, string> = {
    healthz: '/healthz',
    page_filtered_sorted: `${base}?filter%5Bdelivery_status%5D=delivered%2Cin_transit&sort=-last_event_at&per_page=25&page=3`,
    page_default: `${base}?per_page=10`,
    count_all: `${base}?per_page=1`,
    count_filtered: `${base}?per_page=1&filter%5Bdelivery_status%5D=delivered`,
    page_stalled: `${base}?filter%5Bstalled%5D=true&per_page=25`,
    page_late: `${base}?filter%5Blate%5D=true&per_page=25`,
    // One shipment's page: the row with its checkpoint timeline, webhooks and activity.
    shipment: `${base}/${50_000_000 + Math.floor(ROWS / 2)}`,
    dashboard: `/api/integrations/parcel-tracking/instances/${instanceId}`,
  };
  const chosen = values.cases?.split(',');
  const unknown = chosen?.filter((name) => !(name in cases)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown cases: ${unknown.join(', ')}`);
  const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
  for (const [name, path] of Object.entries(cases)) {
    if (name === 'healthz' || !chosen || chosen.includes(name)) {
      results[name] = await measure(dev, path, pids);
    }
  }
  const cpuTotal = (result: { cpu_ms_per_request: Record<string, number> }) =>
    Object.values(result.cpu_ms_per_request).reduce((sum, ms) => sum + ms, 0);
  const baseline = Math.max(cpuTotal(results.healthz!), 0.01);
  const p95Under = (limit: number, ...names: string[]) =>
    names.every((name) => !results[name] || results[name].p95_ms < limit);
  const cpuRatios = Object.fromEntries(
    Object.entries(results).map(([name, result]) => [
      name,
      Math.round((cpuTotal(result) / baseline) * 10) / 10,
    ]),
  );
  console.log(
    JSON.stringify(
      {
        machine: { cpus: cpus().length, node: process.version },
        rows: ROWS,
        checkpoints_per_row: CHECKPOINTS,
        requests_per_case: REQUESTS,
        seed_seconds: seedSeconds,
        mongo_rss_mb: pids.mongo ? rssMb(pids.mongo) : null,
        results,
        // CPU per request of every measured process, as a multiple of /healthz's in this run.
        cpu_ratio_to_healthz: cpuRatios,
        targets: {
          page_p95_under_20ms: p95Under(20, 'page_filtered_sorted'),
          count_p95_under_10ms: p95Under(10, 'count_all', 'count_filtered'),
          watched_pages_p95_under_20ms: p95Under(20, 'page_stalled', 'page_late'),
        },
      },
      null,
      2,
    ),
  );
} finally {
  await system.stop();
}
