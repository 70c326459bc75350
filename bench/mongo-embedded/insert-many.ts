/**
 * Server CPU per inserted document for the identity service's request log: `insertMany(rows,
 * { ordered: false, lean: true })` in batches into `token_requests` with its three secondary indexes
 * (`event_id` unique, `{tenant_id, token_id, at: -1}`, `at` TTL), compared, in the same run, with the
 * same documents inserted into a collection that has only `_id`, and with a `ping` round trip.
 *
 * The server runs in a child process (`insert-server.ts`) and reports its own `process.cpuUsage()`
 * around every block of batches, so mongoose's client-side work is not counted. Blocks alternate
 * between the indexed and the `_id`-only collection so background load on a shared machine hits both alike.
 *
 * Run: npx tsx --conditions=development bench/mongo-embedded/insert-many.ts [docs=30000] [batch=100] [dataDir] [fsync=interval]
 * Profile the server: BENCH_SERVER_PROF=<dir> ... (adds --cpu-prof --cpu-prof-dir=<dir> to the server).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import mongoose from 'mongoose';
import { startEngineProcess, type EngineProcessOptions } from './engine-process.js';
import {
  TokenRequestRepositoryForBench as TokenRequestRepository,
  type TokenRequestDocument,
} from '@inventory/identity/bench';

const DOCS = Number(process.argv[2] ?? 30_000);
const BATCH = Number(process.argv[3] ?? 100);
const DATA_DIR = process.argv[4] || undefined;
const FSYNC = (process.argv[5] ?? 'interval') as EngineProcessOptions['fsync'];
const WARMUP_BATCHES = 20;
const SINGLES = 2_000;
const PINGS = 2_000;
const TENANTS = Array.from({ length: 8 }, () => new mongoose.Types.ObjectId().toHexString());

if (DATA_DIR) fs.rmSync(DATA_DIR, { recursive: true, force: true });

// --- the server process -------------------------------------------------------------------------
const engine = await startEngineProcess({
  dataDir: DATA_DIR,
  fsync: FSYNC,
  profileDir: process.env.BENCH_SERVER_PROF,
});

class Meter {
  /** Server CPU of one empty measurement (two IPC round trips), subtracted from every measurement. */
  static overheadUs = 0;
  cpuUs = 0;
  wallMs = 0;
  count = 0;
  async time(count: number, fn: () => Promise<unknown>): Promise<void> {
    const c0 = await engine.cpuUs();
    const t0 = performance.now();
    await fn();
    this.wallMs += performance.now() - t0;
    this.cpuUs += (await engine.cpuUs()) - c0 - Meter.overheadUs;
    this.count += count;
  }
  get perOp(): number {
    return this.cpuUs / this.count;
  }
  get rate(): number {
    return this.count / (this.wallMs / 1000);
  }
}

// --- the client ---------------------------------------------------------------------------------
const conn = await mongoose
  .createConnection(`mongodb://127.0.0.1:${engine.port}/bench`)
  .asPromise();

// Identity's own repository: its schema, its indexes and its bulk write.
const requests = new TokenRequestRepository(conn, 30);
const Indexed = requests.model;
// Baseline: the same schema with only the `_id` index.
const plainSchema = Indexed.schema.clone().clearIndexes().set('collection', 'token_requests_plain');
plainSchema.path('event_id').index(false);
const Plain = conn.model<TokenRequestDocument>('TokenRequestPlain', plainSchema);
const Token = conn.model(
  'Token',
  new mongoose.Schema(
    { tenant_id: String, id: Number, last_used_at: Date },
    { collection: 'tokens', versionKey: false },
  ),
);
await Promise.all([Indexed.init(), Plain.init(), Token.init()]);
if ((await Plain.collection.indexes()).length !== 1)
  throw new Error('the baseline collection must have only the _id index');
await Token.insertMany(
  TENANTS.flatMap((tenant_id) => [1, 2, 3, 4].map((id) => ({ tenant_id, id, last_used_at: null }))),
);

let seq = 0;
const row = (tenant: string): TokenRequestDocument => ({
  event_id: randomUUID(),
  tenant_id: tenant,
  token_id: (seq % 4) + 1,
  user_id: 1,
  method: 'GET',
  route: '/api/user',
  path: '/api/user',
  status: 200,
  duration_ms: 1 + (seq++ % 1000) / 1000,
  ip: '127.0.0.1',
  user_agent: 'autocannon',
  at: new Date(),
});
const batchOf = (n: number, tenant: string) => Array.from({ length: n }, () => row(tenant));
const insertBatch = (model: typeof Indexed, rows: TokenRequestDocument[]) =>
  model.insertMany(rows, { ordered: false, lean: true });
const touch = (tenant: string) =>
  Token.bulkWrite(
    [1, 2, 3, 4].map((id) => ({
      updateOne: {
        filter: { tenant_id: tenant, id },
        update: { $max: { last_used_at: new Date() } },
      },
    })),
    { ordered: false },
  );

// Warm-up (JIT, collection growth) on both collections, not measured.
for (let b = 0; b < WARMUP_BATCHES; b++) {
  const t = TENANTS[b % TENANTS.length]!;
  await insertBatch(Indexed, batchOf(BATCH, t));
  await insertBatch(Plain, batchOf(BATCH, t));
}

const empty = new Meter();
for (let i = 0; i < 100; i++) await empty.time(1, async () => undefined);
Meter.overheadUs = empty.perOp;

const ping = new Meter();
for (let i = 0; i < PINGS; i += 100)
  await ping.time(100, async () => {
    for (let j = 0; j < 100; j++) await conn.db!.command({ ping: 1 });
  });

// Blocks of BLOCK batches, alternating which collection goes first, so background load and GC debt
// are shared by both; server CPU is read once per block to keep the meter's own IPC out of the figures.
const BLOCK = 10;
const many = { indexed: new Meter(), plain: new Meter(), touch: new Meter() };
for (let done = 0, b = 0; done < DOCS; b++) {
  const blocks = { indexed: [] as TokenRequestDocument[][], plain: [] as TokenRequestDocument[][] };
  const tenants: string[] = [];
  for (let k = 0; k < BLOCK && done < DOCS; k++, done += BATCH) {
    const t = TENANTS[(b * BLOCK + k) % TENANTS.length]!;
    tenants.push(t);
    blocks.indexed.push(batchOf(Math.min(BATCH, DOCS - done), t));
    blocks.plain.push(batchOf(Math.min(BATCH, DOCS - done), t));
  }
  const docs = blocks.indexed.reduce((n, r) => n + r.length, 0);
  const runIndexed = () =>
    many.indexed.time(docs, async () => {
      for (const rows of blocks.indexed) await insertBatch(Indexed, rows);
    });
  const runPlain = () =>
    many.plain.time(docs, async () => {
      for (const rows of blocks.plain) await insertBatch(Plain, rows);
    });
  if (b % 2 === 0) {
    await runIndexed();
    await runPlain();
  } else {
    await runPlain();
    await runIndexed();
  }
  await many.touch.time(tenants.length, async () => {
    for (const t of tenants) await touch(t);
  });
}

// ordered:false with duplicates: every other row is a replay of an already stored event id.
const dupRows = batchOf(BATCH, TENANTS[0]!);
await insertBatch(Indexed, dupRows.slice(0, BATCH / 2));
const dupResult = await Indexed.insertMany(dupRows, { ordered: false, lean: true }).then(
  () => 'no error (unexpected)',
  (err: { writeErrors?: { code?: number; err?: { code?: number } }[]; insertedDocs?: unknown[] }) =>
    `${err.writeErrors?.length ?? 0} writeErrors (codes ${[
      ...new Set(err.writeErrors?.map((e) => e.code ?? e.err?.code)),
    ].join(',')})`,
);

const single = { indexed: new Meter(), plain: new Meter() };
for (let i = 0; i < SINGLES; i += 50) {
  const t = TENANTS[i % TENANTS.length]!;
  const a = batchOf(50, t);
  const b = batchOf(50, t);
  await single.indexed.time(50, async () => {
    for (const r of a) await Indexed.collection.insertOne(r);
  });
  await single.plain.time(50, async () => {
    for (const r of b) await Plain.collection.insertOne(r);
  });
}

const [countIndexed, countPlain] = await Promise.all([
  Indexed.countDocuments(),
  Plain.countDocuments(),
]);
await conn.close();
await engine.stop();

// --- report -------------------------------------------------------------------------------------
const us = (v: number) => `${v.toFixed(1)} µs`;
const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
console.log(
  `machine: ${os.cpus().length} cores, load avg ${os.loadavg()[0]!.toFixed(1)} (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}`,
);
console.log(
  `server: ${DATA_DIR ? `journal in ${DATA_DIR}, fsync ${FSYNC}` : 'memory only (no data dir)'}; ${DOCS} docs per collection in batches of ${BATCH} (after ${WARMUP_BATCHES} warm-up batches); final counts ${countIndexed} / ${countPlain}`,
);
console.log(`meter overhead (subtracted): ${us(Meter.overheadUs)} server CPU per measurement`);
console.log(`ping round trip: server ${us(ping.perOp)} CPU per ping`);
console.log(
  `insertMany, _id only (baseline): server ${us(many.plain.perOp)} CPU/doc, ${Math.round(many.plain.rate)} docs/s`,
);
console.log(
  `insertMany, token_requests (3 indexes): server ${us(many.indexed.perOp)} CPU/doc, ${Math.round(many.indexed.rate)} docs/s — ${x(many.indexed.perOp, many.plain.perOp)} the _id-only CPU/doc, ${x(many.indexed.perOp, ping.perOp)} a ping`,
);
console.log(
  `  per ${BATCH}-doc command: indexed ${us(many.indexed.perOp * BATCH)}, _id only ${us(many.plain.perOp * BATCH)}, ping ${us(ping.perOp)}`,
);
console.log(
  `tokens bulkWrite (4 x updateOne $max): server ${us(many.touch.perOp)} CPU per bulkWrite (${x(many.touch.perOp, ping.perOp)} a ping)`,
);
console.log(
  `insertOne, token_requests: server ${us(single.indexed.perOp)} CPU/doc (${x(single.indexed.perOp, ping.perOp)} a ping); _id only: ${us(single.plain.perOp)} (${x(single.plain.perOp, ping.perOp)} a ping)`,
);
console.log(`ordered:false batch of ${BATCH} with ${BATCH / 2} replayed event ids: ${dupResult}`);
