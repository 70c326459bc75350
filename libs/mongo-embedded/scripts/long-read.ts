/**
 * The parcel-tracking dashboard's transit read on the embedded server: 100,000 tracking-shaped rows
 * (one tenant, one instance, `delivered_at` on ~14 % of them, the parcel-tracking indexes that can
 * bound it), then `find({tenant_id, integration_instance_id, delivered_at: {$gte}})` with the
 * dashboard's six-field projection pulled through the driver, while a second client pings every
 * 5 ms. Prints the find's time and the longest wait of a ping sent while it ran. The server runs
 * as the CLI process with a journal in a temporary directory, as the services' is.
 * Run: node --conditions=development --import tsx libs/mongo-embedded/scripts/long-read.ts [runs=5] [docs=100000]
 * With BENCH_PROFILE=<dir> the server's CPU is profiled into that directory; with
 * BENCH_ENGINE_SRC=<another copy's src directory> that copy is measured (before/after runs).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';

// The pinger runs in its own process, so the reader's own work (decoding its batches) does not
// delay the pings it measures: `long-read.ts pinger <url>`, driven over IPC.
if (process.argv[2] === 'pinger') {
  const client = await new MongoClient(process.argv[3]!, { maxPoolSize: 1 }).connect();
  let running = false;
  process.on('message', async (msg: string) => {
    if (msg === 'stop') {
      running = false;
      return;
    }
    if (msg === 'exit') {
      await client.close();
      process.exit(0);
    }
    running = true;
    let worst = 0;
    let pings = 0;
    while (running) {
      const t = performance.now();
      await client.db('admin').command({ ping: 1 });
      worst = Math.max(worst, performance.now() - t);
      pings++;
      await new Promise((r) => setTimeout(r, 5));
    }
    process.send!({ worst, pings });
  });
  process.on('disconnect', () => process.exit(0));
  process.send!('ready');
  await new Promise(() => {});
}

const RUNS = Number(process.argv[2] ?? 5);
const DOCS = Number(process.argv[3] ?? 100_000);
const T0 = 1_780_000_000_000;
const DAY = 86_400_000;

const dbpath = mkdtempSync(path.join(os.tmpdir(), 'long-read-'));
const cli = process.env.BENCH_ENGINE_SRC
  ? path.join(process.env.BENCH_ENGINE_SRC, 'cli/main.ts')
  : fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const profile = process.env.BENCH_PROFILE
  ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
  : [];
const server = spawn(
  process.execPath,
  [
    ...profile,
    '--conditions=development',
    '--import',
    'tsx',
    cli,
    '--port',
    '0',
    '--dbpath',
    dbpath,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const m = /ready on (mongodb:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
  server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
});
const reader = await new MongoClient(url, { monitorCommands: true }).connect();
// Round trips of the read's own commands: the find (its first batch) and its longest getMore.
let longest = { find: 0, getMore: 0 };
reader.on('commandSucceeded', (e) => {
  if (e.commandName === 'find' || e.commandName === 'getMore')
    longest[e.commandName] = Math.max(longest[e.commandName], e.duration);
});
const pinger: ChildProcess = fork(fileURLToPath(import.meta.url), ['pinger', url]);
await new Promise((resolve) => pinger.once('message', resolve));
const coll = reader.db('bench').collection('tracking_rows');
const lead = { tenant_id: 1, integration_instance_id: 1 };
for (const spec of [
  { tenant_id: 1, id: 1 },
  { ...lead, created_at: -1, id: -1 },
  { ...lead, last_event_at: -1, id: -1 },
  { ...lead, delivered_at: -1, id: -1 },
  { ...lead, delivery_status: 1, created_at: -1, id: -1 },
  { ...lead, provider_stopped_at: 1, active: 1, delivered_at: 1 },
  { ...lead, carrier_code: 1, carrier_name: 1 },
])
  await coll.createIndex(spec);

const row = (i: number) => {
  const delivered = i % 7 === 0;
  const created = new Date(T0 - (i % 60) * DAY);
  return {
    id: i,
    tenant_id: 'tenant-a',
    integration_instance_id: 1,
    trackable_type: 'order',
    trackable_id: i,
    trackable_label: `Order #${i}`,
    trackable_url: `https://shop.example/orders/${i}`,
    tracking_number: `1Z${String(i).padStart(12, '0')}`,
    carrier_code: 100 + (i % 13),
    carrier_name: `Carrier ${i % 13}`,
    delivery_status: delivered ? 'delivered' : 'in_transit',
    sub_status: null,
    latest_event_description: 'Departed facility',
    latest_event_location: 'Leipzig, DE',
    last_event_at: new Date(created.getTime() + DAY),
    estimated_delivery_at: new Date(created.getTime() + 3 * DAY),
    delivered_at: delivered ? new Date(created.getTime() + 2 * DAY) : null,
    picked_up_at: new Date(created.getTime() + DAY / 2),
    registered_at: created,
    registration_error: null,
    stopped_at: null,
    provider_stopped_at: null,
    active: !delivered,
    lease_owner: null,
    lease_until: new Date(0),
    registration_attempts: 0,
    revision: 3,
    created_at: created,
    updated_at: created,
  };
};
for (let i = 0; i < DOCS; i += 1000)
  await coll.insertMany(Array.from({ length: Math.min(1000, DOCS - i) }, (_, k) => row(i + k)));

const filter = {
  tenant_id: 'tenant-a',
  integration_instance_id: 1,
  delivered_at: { $gte: new Date(T0 - 90 * DAY) },
};
const projection = {
  _id: 0,
  carrier_code: 1,
  carrier_name: 1,
  created_at: 1,
  picked_up_at: 1,
  delivered_at: 1,
  estimated_delivery_at: 1,
};
const explain = await coll.find(filter, { projection }).explain('executionStats');
const plan = JSON.stringify(explain.queryPlanner.winningPlan).match(/"indexName":"([^"]+)"/)?.[1];
process.stdout.write(`plan: ${plan ?? 'COLLSCAN'}\n`);

const took: number[] = [];
const waits: number[] = [];
const finds: number[] = [];
const getMores: number[] = [];
// Run 0 warms up (and meets the compaction the fill started); it is not counted.
for (let run = 0; run <= RUNS; run++) {
  const answer = new Promise<{ worst: number; pings: number }>((resolve) =>
    pinger.once('message', resolve),
  );
  pinger.send('start');
  longest = { find: 0, getMore: 0 };
  const t = performance.now();
  const rows = await coll.find(filter, { projection }).toArray();
  const ms = performance.now() - t;
  pinger.send('stop');
  const { worst, pings } = await answer;
  if (run > 0) {
    took.push(ms);
    waits.push(worst);
    finds.push(longest.find);
    getMores.push(longest.getMore);
  }
  process.stdout.write(
    `run ${run}: ${rows.length} rows in ${ms.toFixed(0)} ms (find ${longest.find.toFixed(0)} ms, ` +
      `longest getMore ${longest.getMore.toFixed(0)} ms); ${pings} pings, longest ${worst.toFixed(0)} ms\n`,
  );
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!.toFixed(0);
process.stdout.write(
  `median of ${RUNS}: read ${median(took)} ms (find command ${median(finds)} ms, longest getMore ` +
    `${median(getMores)} ms), longest ping ${median(waits)} ms (worst ${Math.max(...waits).toFixed(0)} ms)\n`,
);
await reader.close();
pinger.send('exit');
const exited = new Promise((resolve) => server.on('exit', resolve));
server.kill('SIGTERM');
await exited;
rmSync(dbpath, { recursive: true, force: true });
