/**
 * Through mongoose: insert throughput, findOne latency on an indexed vs a non-indexed field, and
 * single-document write latency (insert, updateOne by an indexed field, findOneAndUpdate $inc).
 * Run: npx tsx --conditions=development bench/mongo-embedded/run.ts [docCount] [lookups] [dataDir] [fsync]
 * With a dataDir the server journals (fsync `interval` by default) and the directory is emptied first.
 */
import fs from 'node:fs';
import os from 'node:os';
import mongoose from 'mongoose';
import { startEmbeddedMongo } from '@inventory/mongo-embedded';

const DOCS = Number(process.argv[2] ?? 100_000);
const LOOKUPS = Number(process.argv[3] ?? 2_000);
const SCAN_LOOKUPS = Math.min(LOOKUPS, 200);
const DATA_DIR = process.argv[4];
const FSYNC = (process.argv[5] ?? 'interval') as 'always' | 'interval' | 'never';
if (DATA_DIR) fs.rmSync(DATA_DIR, { recursive: true, force: true });

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timeLookups(
  n: number,
  fn: (i: number) => Promise<unknown>,
): Promise<{ median: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { median: pct(times, 50), p99: pct(times, 99) };
}

const server = await startEmbeddedMongo(DATA_DIR ? { dataDir: DATA_DIR, fsync: FSYNC } : {});
const conn = await mongoose.createConnection(`${server.url}/bench`).asPromise();
const schema = new mongoose.Schema({
  sku: { type: String, index: true },
  code: String,
  qty: Number,
});
const Item = conn.model('Item', schema);
// The id-allocation pattern services use: one document per sequence, bumped with $inc.
const Counter = conn.model('Counter', new mongoose.Schema({ _id: String, seq: Number }));
await Item.init();

const t0 = performance.now();
const BATCH = 1_000;
for (let i = 0; i < DOCS; i += BATCH) {
  const batch = Array.from({ length: Math.min(BATCH, DOCS - i) }, (_, j) => ({
    sku: `sku-${i + j}`,
    code: `code-${i + j}`,
    qty: (i + j) % 97,
  }));
  await Item.insertMany(batch, { lean: true });
}
const insertSecs = (performance.now() - t0) / 1000;

let singles = 0;
const t1 = performance.now();
while (performance.now() - t1 < 2_000)
  await Item.create({ sku: `single-${singles++}`, code: 'x', qty: 1 });
const singleRate = singles / ((performance.now() - t1) / 1000);

// Baseline: a no-op round trip (driver + socket + event loop), to separate transport from lookup cost.
const ping = await timeLookups(LOOKUPS, () => conn.db!.command({ ping: 1 }));
const rnd = (i: number) => (i * 7919) % DOCS;
const indexed = await timeLookups(LOOKUPS, (i) => Item.findOne({ sku: `sku-${rnd(i)}` }).lean());
const scanned = await timeLookups(SCAN_LOOKUPS, (i) =>
  Item.findOne({ code: `code-${rnd(i)}` }).lean(),
);

// Single-document writes, one acknowledged round trip at a time.
const created = await timeLookups(LOOKUPS, (i) =>
  Item.create({ sku: `w-${i}`, code: 'w', qty: 1 }),
);
const updated = await timeLookups(LOOKUPS, (i) =>
  Item.updateOne({ sku: `sku-${rnd(i)}` }, { $inc: { qty: 1 } }),
);
const counted = await timeLookups(LOOKUPS, () =>
  Counter.findOneAndUpdate(
    { _id: 'orders' },
    { $inc: { seq: 1 } },
    { upsert: true, new: true },
  ).lean(),
);

const f = (ms: number) => `${ms.toFixed(3)} ms`;
const vsPing = (r: { median: number; p99: number }) =>
  `(${(r.median / ping.median).toFixed(1)}x ping median, ${(r.p99 / ping.p99).toFixed(1)}x ping p99)`;
console.log(
  `machine: ${os.cpus().length} cores, load avg ${os.loadavg()[0]!.toFixed(1)} (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}`,
);
console.log(
  `insertMany (batches of ${BATCH}): ${Math.round(DOCS / insertSecs)} docs/s (${DOCS} docs in ${insertSecs.toFixed(1)} s)`,
);
console.log(
  `server: ${DATA_DIR ? `journal in ${DATA_DIR}, fsync ${FSYNC}` : 'memory only (no data dir)'}`,
);
console.log(`Model.create (one insert per round trip): ${Math.round(singleRate)} docs/s`);
console.log(`ping round trip (baseline): median ${f(ping.median)}, p99 ${f(ping.p99)}`);
console.log(
  `indexed findOne over ${DOCS} docs (${LOOKUPS} lookups): median ${f(indexed.median)}, p99 ${f(indexed.p99)}`,
);
console.log(
  `non-indexed findOne over ${DOCS} docs (${SCAN_LOOKUPS} lookups): median ${f(scanned.median)}, p99 ${f(scanned.p99)}`,
);
console.log(
  `ratio non-indexed/indexed: median ${(scanned.median / indexed.median).toFixed(1)}x, p99 ${(scanned.p99 / indexed.p99).toFixed(1)}x`,
);

for (const [label, r] of [
  ['Model.create, one at a time', created],
  ['updateOne by indexed sku ($inc)', updated],
  ['findOneAndUpdate $inc counter (upsert)', counted],
] as const) {
  console.log(`${label} (${LOOKUPS}): median ${f(r.median)}, p99 ${f(r.p99)} ${vsPing(r)}`);
}
console.log(
  `indexed findOne vs ping: ${vsPing(indexed)}; target (indexed findOne median < 1 ms at 100,000 docs): ${
    DOCS >= 100_000 ? (indexed.median < 1 ? 'met' : 'NOT met') : 'n/a (fewer docs)'
  }`,
);

await conn.close();
await server.stop();
