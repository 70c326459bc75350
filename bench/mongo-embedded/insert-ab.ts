/**
 * Inserts and indexed point look-ups through the official driver, this checkout's engine against
 * another copy (e.g. the commit before ordered indexes), in one run: each engine is a server in its
 * own child process (`insert-server.ts`), one client drives both, alternating blocks so background
 * load on a shared machine hits both alike. Figures are CPU time per operation: the server's own
 * `process.cpuUsage()` plus the client's, summed (the client does the same work for both).
 *
 * Run: npx tsx --conditions=development bench/mongo-embedded/insert-ab.ts <other copy's src dir> [docs=100000] [rounds=3]
 * (unpack the other copy inside the repository so its imports resolve:
 *  mkdir -p tmp/before && git archive <commit> libs/mongo-embedded/src | tar -x -C tmp/before)
 * BENCH_SERVER_PROF=<dir> profiles both servers (--cpu-prof).
 */
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Collection } from 'mongodb';
import { startEngineProcess, type EngineProcess } from './engine-process.js';

const OTHER = process.argv[2];
if (!OTHER) throw new Error('usage: insert-ab.ts <other src dir> [docs] [rounds]');
const DOCS = Number(process.argv[3] ?? 100_000);
const ROUNDS = Number(process.argv[4] ?? 3);
const BATCH = 1_000;
const BLOCK = 5; // batches per measured block
const LOOKUPS = 2_000;
const STATUSES = ['pending', 'in_transit', 'delivered', 'failed', 'returned'];
const prof = process.env.BENCH_SERVER_PROF;

interface Side {
  engine: EngineProcess;
  client: MongoClient;
}

async function startSide(engine?: string): Promise<Side> {
  const started = await startEngineProcess({ engine, profileDir: prof });
  const client = await new MongoClient(`mongodb://127.0.0.1:${started.port}`).connect();
  return { engine: started, client };
}

const clientCpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** Charges the server's and the client's CPU during `fn` to `meter`. */
async function timed(
  s: Side,
  meter: { cpu: number; server: number; ops: number },
  ops: number,
  fn: () => Promise<unknown>,
) {
  const s0 = await s.engine.cpuUs();
  const c0 = clientCpu();
  await fn();
  const c1 = clientCpu();
  const s1 = await s.engine.cpuUs();
  meter.server += s1 - s0;
  meter.cpu += s1 - s0 + (c1 - c0);
  meter.ops += ops;
}

const row = (i: number) => ({
  tenant_id: 't1',
  integration_instance_id: i % 10 === 0 ? 'ii-2' : 'ii-1',
  id: `trk-${String(i).padStart(8, '0')}`,
  delivery_status: STATUSES[(i * 7) % STATUSES.length],
  created_at: new Date(1_700_000_000_000 + i * 1000),
  carrier: `c${i % 13}`,
});

async function prepare(coll: Collection): Promise<void> {
  await coll.drop().catch(() => undefined);
  await coll.createIndex({ tenant_id: 1, integration_instance_id: 1, created_at: -1, id: -1 });
  await coll.createIndex({
    tenant_id: 1,
    integration_instance_id: 1,
    delivery_status: 1,
    created_at: -1,
  });
  await coll.createIndex({ tenant_id: 1, id: 1 }, { unique: true });
}

const sides = {
  after: await startSide(),
  before: await startSide(path.resolve(OTHER, 'index.ts')),
};
type Name = keyof typeof sides;
const order = (i: number): Name[] => (i % 2 ? ['after', 'before'] : ['before', 'after']);
const meter = () => ({ cpu: 0, server: 0, ops: 0 });
const inserts = { after: meter(), before: meter() };
const lookups = { after: meter(), before: meter() };
const pings = { after: meter(), before: meter() };
const coll = (n: Name, r: number) => sides[n].client.db('bench').collection(`trackings_${r}`);

for (let r = 0; r < ROUNDS; r++) {
  for (const n of order(r)) await prepare(coll(n, r));
  for (let i = 0, b = 0; i < DOCS; i += BATCH * BLOCK, b++) {
    const batches = Array.from({ length: BLOCK }, (_, k) =>
      Array.from({ length: BATCH }, (_, j) => row(i + k * BATCH + j)),
    ).filter((_, k) => i + k * BATCH < DOCS);
    for (const n of order(b)) {
      // The driver adds `_id` to the documents it is given: each side gets its own copies.
      const copies = batches.map((rows) => rows.map((d) => ({ ...d })));
      // Warm-up (JIT, first growth): the first block of the first round is not measured.
      const m = r === 0 && b === 0 ? meter() : inserts[n];
      await timed(sides[n], m, copies.length * BATCH, async () => {
        for (const rows of copies) await coll(n, r).insertMany(rows);
      });
    }
  }
  for (let i = 0; i < LOOKUPS; i += 100)
    for (const n of order(i / 100)) {
      await timed(sides[n], lookups[n], 100, async () => {
        for (let j = 0; j < 100; j++)
          await coll(n, r).findOne({
            tenant_id: 't1',
            id: `trk-${String(((i + j) * 7919) % DOCS).padStart(8, '0')}`,
          });
      });
      await timed(sides[n], pings[n], 100, async () => {
        for (let j = 0; j < 100; j++) await sides[n].client.db('admin').command({ ping: 1 });
      });
    }
  for (const n of order(r)) await coll(n, r).drop();
}

for (const s of Object.values(sides)) {
  await s.client.close();
  await s.engine.stop();
}

const us = (m: { cpu: number; ops: number }) => m.cpu / m.ops;
const sv = (m: { server: number; ops: number }) => m.server / m.ops;
const line = (label: string, m: Record<Name, ReturnType<typeof meter>>) =>
  console.log(
    `${label}: after ${us(m.after).toFixed(1)} µs CPU/op (server ${sv(m.after).toFixed(1)}), before ${us(m.before).toFixed(1)} (server ${sv(m.before).toFixed(1)}) -> after/before ${(us(m.after) / us(m.before)).toFixed(3)} (server ${(sv(m.after) / sv(m.before)).toFixed(3)})`,
  );
console.log(
  `machine: ${os.cpus().length} cores, load avg ${os.loadavg()[0]!.toFixed(1)}, node ${process.version}; ${DOCS} docs x ${ROUNDS} rounds, 3 indexes + _id`,
);
line('insertMany (1,000 per batch), per document', inserts);
line('findOne({tenant_id, id}), per look-up', lookups);
line('ping (same-run baseline), per round trip', pings);
