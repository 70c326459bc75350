/**
 * Storage layer, before vs after, in one process: the same documents inserted into a collection of
 * this checkout's engine and of another copy (e.g. the commit before a change, unpacked with
 * `git archive <commit> libs/mongo-embedded/src | tar -x -C node_modules/.before`), in alternating
 * blocks so background load hits both alike; then point look-ups alternating likewise.
 * No wire protocol: this isolates insert and look-up cost from the driver and the socket.
 * Run: npx tsx bench/mongo-embedded/storage-ab.ts <other copy's src dir> [docs=100000]
 */
import path from 'node:path';
import { ObjectId } from 'bson';

const OTHER = process.argv[2];
if (!OTHER) throw new Error('usage: storage-ab.ts <other src dir> [docs]');
const N = Number(process.argv[3] ?? 100_000);
const BLOCK = 2_000;
const here = path.resolve(import.meta.dirname, '../../libs/mongo-embedded/src');

interface Coll {
  insert(doc: object): void;
  prepareInsert(doc: object): object;
  find(filter: object): unknown[];
  createIndex(spec: object): boolean;
}

async function build(src: string): Promise<Coll> {
  const { Collection } = (await import(path.join(src, 'storage/collection.ts'))) as {
    Collection: new (db: string, name: string) => Coll;
  };
  const c = new Collection('d', 'c');
  c.createIndex({ key: { tenant_id: 1, instance: 1, created_at: -1, id: -1 }, name: 'list' });
  c.createIndex({ key: { tenant_id: 1, instance: 1, status: 1, created_at: -1 }, name: 'status' });
  c.createIndex({ key: { tenant_id: 1, id: 1 }, name: 'tenant_id', unique: true });
  c.createIndex({ key: { sku: 1 }, name: 'sku' });
  return c;
}

const engines = { after: await build(here), before: await build(path.resolve(OTHER)) };
type Side = keyof typeof engines;
const order = (i: number): Side[] => (i % 2 ? ['after', 'before'] : ['before', 'after']);
const key = (i: number) => String(i).padStart(8, '0');
const row = (i: number) => ({
  _id: new ObjectId(),
  tenant_id: 't1',
  instance: i % 10 ? 'ii-1' : 'ii-2',
  id: `trk-${key(i)}`,
  sku: `sku-${key(i)}`,
  status: ['a', 'b', 'c', 'd', 'e'][i % 5],
  created_at: new Date(1_700_000_000_000 + i * 1000),
});

const insertMs = { after: 0, before: 0 };
for (let i = 0; i < N; i += BLOCK)
  for (const side of order(i / BLOCK)) {
    const rows = Array.from({ length: Math.min(BLOCK, N - i) }, (_, j) => row(i + j));
    const t0 = performance.now();
    for (const r of rows) engines[side].insert(engines[side].prepareInsert(r));
    insertMs[side] += performance.now() - t0;
  }

const lookups = {
  'unique {tenant_id, id}': (i: number) => ({ tenant_id: 't1', id: `trk-${key(i)}` }),
  'non-unique {sku}': (i: number) => ({ sku: `sku-${key(i)}` }),
};
const lookupMs: Record<string, Record<Side, number>> = {};
const ROUNDS = 10;
const PER_ROUND = 2_000;
for (const [name, filter] of Object.entries(lookups)) {
  lookupMs[name] = { after: 0, before: 0 };
  for (let round = 0; round < ROUNDS; round++)
    for (const side of order(round)) {
      const t0 = performance.now();
      for (let q = 0; q < PER_ROUND; q++) engines[side].find(filter((q * 7919) % N));
      lookupMs[name]![side] += performance.now() - t0;
    }
}

const us = (ms: number, n: number) => `${((ms * 1000) / n).toFixed(1)} µs`;
console.log(`${N} documents, 4 secondary indexes + _id`);
console.log(
  `insert: after ${us(insertMs.after, N)}, before ${us(insertMs.before, N)}, ratio ${(insertMs.after / insertMs.before).toFixed(2)}`,
);
for (const [name, ms] of Object.entries(lookupMs))
  console.log(
    `find ${name}: after ${us(ms.after, ROUNDS * PER_ROUND)}, before ${us(ms.before, ROUNDS * PER_ROUND)}, ratio ${(ms.after / ms.before).toFixed(2)}`,
  );
