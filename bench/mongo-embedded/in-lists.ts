/**
 * `$in` lists on an indexed field (outbound-delivery's dedupe look-up) and sorted `$in`s, as server
 * CPU per `find`, against a single-key indexed `findOne` measured in the same run. Each engine is a
 * server in its own child process (`insert-server.ts`, which reports its own `process.cpuUsage()`),
 * so the figures are server CPU only; with a second engine given, blocks alternate between the two so
 * background load on a shared machine hits both alike.
 *
 * Run: npx tsx --conditions=development bench/mongo-embedded/in-lists.ts [other copy's src dir | -] [docs=100000] [rounds=3] [ops=10]
 * BENCH_SERVER_PROF=<dir> adds --cpu-prof to the servers.
 * (unpack the other copy inside the repository so its imports resolve:
 *  mkdir -p tmp/before && git archive <commit> libs/mongo-embedded/src | tar -x -C tmp/before)
 */
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Collection, type Document } from 'mongodb';
import { startEngineProcess, type EngineProcess } from './engine-process.js';

const OTHER = process.argv[2] && process.argv[2] !== '-' ? process.argv[2] : undefined;
const DOCS = Number(process.argv[3] ?? 100_000);
const ROUNDS = Number(process.argv[4] ?? 3);
const OPS = Number(process.argv[5] ?? 10);
/** BENCH_SERVER_PROF=<dir> profiles the servers (--cpu-prof). */
const PROF = process.env.BENCH_SERVER_PROF;
/** Distinct values of `g` (each on DOCS / GROUPS documents), the field of the sorted shapes. */
const GROUPS = 1_000;

interface Side {
  name: string;
  engine: EngineProcess;
  client: MongoClient;
}

async function startSide(name: string, engine?: string): Promise<Side> {
  const started = await startEngineProcess({ engine, profileDir: PROF });
  const client = await new MongoClient(`mongodb://127.0.0.1:${started.port}`).connect();
  return { name, engine: started, client };
}

const key = (i: number) => `dk-${String(i).padStart(8, '0')}`;
const row = (i: number) => ({
  dedupe_key: key(i),
  g: (i * 7) % GROUPS,
  created_at: new Date(1_700_000_000_000 + i * 1000),
  tenant_id: 't1',
  body: 'x'.repeat(40),
});

async function fill(coll: Collection): Promise<void> {
  await coll.drop().catch(() => undefined);
  await coll.createIndex({ dedupe_key: 1 }, { unique: true });
  await coll.createIndex({ g: 1, created_at: 1 });
  for (let i = 0; i < DOCS; i += 1_000)
    await coll.insertMany(Array.from({ length: Math.min(1_000, DOCS - i) }, (_, j) => row(i + j)));
}

/** `n` keys spread over the collection, a quarter of them absent (as fresh events are). */
const keys = (n: number, salt: number) =>
  Array.from({ length: n }, (_, j) =>
    key((j * 7_919 + salt * 104_729) % Math.floor((DOCS * 4) / 3)),
  );
const groups = (n: number, salt: number) =>
  Array.from({ length: n }, (_, j) => (j * 13 + salt) % GROUPS);

type Shape = (coll: Collection, i: number) => Promise<unknown>;
const SHAPES: Record<string, { ops: number; run: Shape }> = {
  'findOne({dedupe_key}) (baseline)': {
    ops: OPS * 20,
    run: (c, i) => c.findOne({ dedupe_key: key((i * 7_919) % DOCS) }),
  },
  'dedupe_key $in 100': {
    ops: OPS,
    run: (c, i) =>
      c
        .find({ dedupe_key: { $in: keys(100, i) } }, { projection: { dedupe_key: 1, _id: 0 } })
        .toArray(),
  },
  'dedupe_key $in 1,000': {
    ops: OPS,
    run: (c, i) =>
      c
        .find({ dedupe_key: { $in: keys(1_000, i) } }, { projection: { dedupe_key: 1, _id: 0 } })
        .toArray(),
  },
  'g $in 150, sort created_at, limit 100 (merge)': {
    ops: OPS,
    run: (c, i) =>
      c
        .find({ g: { $in: groups(150, i) } })
        .sort({ created_at: 1 })
        .limit(100)
        .toArray(),
  },
  'g $in 150, sort created_at, all 15,000 (merge)': {
    ops: Math.max(1, OPS >> 1),
    run: (c, i) =>
      c
        .find({ g: { $in: groups(150, i) } }, { projection: { _id: 0, created_at: 1 } })
        .sort({ created_at: 1 })
        .toArray(),
  },
  'g $in 300, sort created_at, limit 100 (in-memory sort)': {
    ops: OPS,
    run: (c, i) =>
      c
        .find({ g: { $in: groups(300, i) } })
        .sort({ created_at: 1 })
        .limit(100)
        .toArray(),
  },
};

const sides = [await startSide('this checkout')];
if (OTHER) sides.push(await startSide(`other copy (${OTHER})`, path.resolve(OTHER, 'index.ts')));
const coll = (s: Side) => s.client.db('bench').collection<Document>('deliveries');
for (const s of sides) await fill(coll(s));

// Server CPU µs per operation: side -> shape -> [sum, ops].
const cpu = new Map<string, Map<string, [number, number]>>();
for (const s of sides) {
  cpu.set(s.name, new Map());
  // Warm-up (JIT, the fill's garbage): two of each shape, not measured.
  for (const [, shape] of Object.entries(SHAPES))
    for (let i = 0; i < 2; i++) await shape.run(coll(s), -1 - i);
}
for (let r = 0; r < ROUNDS; r++)
  for (const [name, shape] of Object.entries(SHAPES))
    for (const s of r % 2 ? [...sides].reverse() : sides) {
      const t0 = await s.engine.cpuUs();
      for (let i = 0; i < shape.ops; i++) await shape.run(coll(s), r * shape.ops + i + 1);
      const t1 = await s.engine.cpuUs();
      const m = cpu.get(s.name)!;
      const [sum, ops] = m.get(name) ?? [0, 0];
      m.set(name, [sum + t1 - t0, ops + shape.ops]);
    }

for (const s of sides) {
  await s.client.close();
  await s.engine.stop();
}

console.log(
  `machine: ${os.cpus().length} cores, load avg ${os.loadavg()[0]!.toFixed(1)}, node ${process.version}; ${DOCS} docs x ${ROUNDS} rounds, indexes {dedupe_key: 1} unique, {g: 1, created_at: 1} + _id`,
);
for (const s of sides) {
  const m = cpu.get(s.name)!;
  const per = (name: string) => m.get(name)![0] / m.get(name)![1];
  const base = per(Object.keys(SHAPES)[0]!);
  console.log(`${s.name}: server CPU per op, and as a multiple of the findOne baseline`);
  for (const name of Object.keys(SHAPES))
    console.log(
      `  ${name.padEnd(56)} ${(per(name) / 1000).toFixed(3).padStart(9)} ms  ${(per(name) / base).toFixed(1).padStart(8)}x`,
    );
}
