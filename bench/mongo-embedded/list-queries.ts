/**
 * Paginated, sorted, filtered lists with counts (the trackings list shape) through the official
 * driver, at 1,000 and 100,000 documents in one run, plus insert throughput and an indexed point
 * look-up. Client and server share one process (memory only).
 * Run: node --expose-gc --conditions=development --import tsx bench/mongo-embedded/list-queries.ts [runs=30] [sizes=1000,100000]
 * Memory mode: node --expose-gc --conditions=development --import tsx bench/mongo-embedded/list-queries.ts memory [docs=1000000]
 */
import os from 'node:os';
import { MongoClient, type Collection } from 'mongodb';
import * as embedded from '@inventory/mongo-embedded';

// BENCH_ENGINE=<path to another copy's src/index.ts> measures that copy instead (before/after runs).
const { startEmbeddedMongo } = (
  process.env.BENCH_ENGINE ? await import(process.env.BENCH_ENGINE) : embedded
) as typeof embedded;
// BENCH_WRITES_ONLY=1: only insert throughput and the point look-up (what an old engine can afford).
const WRITES_ONLY = process.env.BENCH_WRITES_ONLY === '1';

const MODE = process.argv[2] === 'memory' ? 'memory' : 'lists';
const RUNS = MODE === 'lists' ? Number(process.argv[2] ?? 30) : 0;
const SIZES = (MODE === 'lists' ? (process.argv[3] ?? '1000,100000') : '').split(',').map(Number);
const STATUSES = ['pending', 'in_transit', 'delivered', 'failed', 'returned'];

const server = await startEmbeddedMongo({});
const client = await new MongoClient(server.url).connect();

const row = (i: number) => ({
  tenant_id: 't1',
  integration_instance_id: i % 10 === 0 ? 'ii-2' : 'ii-1',
  id: `trk-${String(i).padStart(8, '0')}`,
  delivery_status: STATUSES[(i * 7) % STATUSES.length],
  created_at: new Date(1_700_000_000_000 + i * 1000),
  carrier: `c${i % 13}`,
});

async function fill(coll: Collection, n: number): Promise<number> {
  await coll.createIndex({ tenant_id: 1, integration_instance_id: 1, created_at: -1, id: -1 });
  await coll.createIndex({
    tenant_id: 1,
    integration_instance_id: 1,
    delivery_status: 1,
    created_at: -1,
  });
  await coll.createIndex({ tenant_id: 1, id: 1 }, { unique: true });
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i += 1000)
    await coll.insertMany(Array.from({ length: Math.min(1000, n - i) }, (_, j) => row(i + j)));
  return Number(process.hrtime.bigint() - t0) / 1e3 / n; // µs per document
}

async function median(fn: (i: number) => Promise<unknown>, runs = RUNS): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const prefix = { tenant_id: 't1', integration_instance_id: 'ii-1' };
const byDate = { created_at: -1, id: -1 } as const;

async function measureLists(n: number): Promise<Record<string, number>> {
  const coll = client.db(`bench_${n}`).collection('trackings');
  const insertUsPerDoc = await fill(coll, n);
  const page = (skip: number) => () =>
    coll.find(prefix).sort(byDate).skip(skip).limit(10).toArray();
  const out: Record<string, number> = { insertUsPerDoc };
  out.ping = await median(() => client.db('admin').command({ ping: 1 }));
  out.pointLookup = await median(
    (i) => coll.findOne({ tenant_id: 't1', id: `trk-${String((i * 7919) % n).padStart(8, '0')}` }),
    Math.max(RUNS, 500),
  );
  if (WRITES_ONLY) return out;
  const shapes: Record<string, (i: number) => Promise<unknown>> = {
    page1: page(0),
    skip5000: page(Math.min(5000, Math.floor(n / 2))),
    inPage1: () =>
      coll
        .find({ ...prefix, delivery_status: { $in: ['pending', 'failed'] } })
        .sort(byDate)
        .limit(10)
        .toArray(),
    countPrefix: () => coll.countDocuments(prefix),
    countStatus: () => coll.countDocuments({ ...prefix, delivery_status: 'delivered' }),
    countScan: () => coll.countDocuments(prefix, { hint: { $natural: 1 } }),
    group: () =>
      coll
        .aggregate([{ $match: prefix }, { $group: { _id: '$delivery_status', n: { $sum: 1 } } }])
        .toArray(),
  };
  // Settle the garbage of the fill, warm up, then time the shapes round-robin so that background
  // load and collections hit every shape alike (the same ratios the issue asks for).
  (globalThis as { gc?: () => void }).gc?.();
  for (const fn of Object.values(shapes)) for (let i = 0; i < 3; i++) await fn(i);
  const times: Record<string, number[]> = {};
  for (let r = 0; r < RUNS; r++)
    for (const [name, fn] of Object.entries(shapes)) {
      const t0 = process.hrtime.bigint();
      await fn(r);
      (times[name] ??= []).push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  for (const [name, list] of Object.entries(times))
    out[name] = list.sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
  return out;
}

async function measureMemory(n: number): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  const before = process.memoryUsage();
  const coll = client.db('bench_memory').collection('small');
  await coll.createIndex({ a: 1 });
  await coll.createIndex({ b: 1, c: -1 });
  await coll.createIndex({ c: 1 });
  for (let i = 0; i < n; i += 1000)
    await coll.insertMany(
      Array.from({ length: Math.min(1000, n - i) }, (_, j) => ({
        a: i + j,
        b: `b${(i + j) % 100}`,
        c: (i + j) % 977,
      })),
    );
  gc();
  const after = process.memoryUsage();
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
  console.log(
    `${n} documents {_id, a, b, c}, indexes {a:1}, {b:1,c:-1}, {c:1} + _id: heap +${mb(after.heapUsed - before.heapUsed)}, rss ${mb(after.rss)} (rss before ${mb(before.rss)})`,
  );
}

console.log(
  `machine: ${os.cpus().length} cores, load avg ${os.loadavg()[0]!.toFixed(1)}, node ${process.version}`,
);
if (MODE === 'memory') await measureMemory(Number(process.argv[3] ?? 1_000_000));
else {
  const results: Record<number, Record<string, number>> = {};
  for (const n of SIZES) {
    results[n] = await measureLists(n);
    console.log(
      n,
      JSON.stringify(results[n], (_, v: unknown) =>
        typeof v === 'number' ? Number(v.toFixed(3)) : v,
      ),
    );
  }
  const [small, big] = [results[SIZES[0]!]!, results[SIZES[SIZES.length - 1]!]!];
  if (WRITES_ONLY) process.exit(0);
  const r = (a: number, b: number) => (a / b).toFixed(2);
  console.log(
    `page 1 at ${SIZES.at(-1)} / page 1 at ${SIZES[0]}: ${r(big.page1!, small.page1!)} (target <= 2)`,
  );
  console.log(
    `skip 5000 / page 1 at ${SIZES.at(-1)}: ${r(big.skip5000!, big.page1!)} (target <= 5)`,
  );
  console.log(
    `covered count / full-scan count at ${SIZES.at(-1)}: ${r(big.countPrefix!, big.countScan!)} (target <= 0.1)`,
  );
}
await client.close();
await server.stop();
