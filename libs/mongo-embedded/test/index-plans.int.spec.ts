import { MongoClient, type Collection, type Db, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';
import { STATUSES, mixedValue, referenceSort, rng, stages, trackingRow } from './plan-oracle.js';

let server: EmbeddedMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  server = await startEmbeddedMongo({ port: 0 });
  client = await new MongoClient(server.url).connect();
  db = client.db('plans');
});

afterAll(async () => {
  await client.close();
  await server.stop();
});

type Sort = Record<string, 1 | -1>;
interface Shape {
  filter: Document;
  sort: Sort;
  /** Index the plan must use (name), or undefined when any plan will do. */
  index?: string;
  /** The index must serve the sort (no SORT stage). */
  served?: boolean;
}

const INDEXES: { key: Document; name: string; unique?: boolean }[] = [
  { key: { t: 1, ii: 1, at: -1, id: -1 }, name: 'list' },
  { key: { t: 1, ii: 1, s: 1, u: -1 }, name: 'by_status' },
  { key: { m: 1, id: 1 }, name: 'mixed' },
  { key: { n: 1 }, name: 'n' },
  { key: { id: 1 }, name: 'id', unique: true },
  { key: { s: 1, at: 1, id: 1 }, name: 'due' },
];

function shapes(seed: number): Shape[] {
  const r = rng(seed * 7 + 1);
  const t = r.pick(['t1', 't2']);
  const ii = r.pick(['a', 'b', 'c']);
  const twoStatuses = [r.pick(STATUSES), r.pick(STATUSES)];
  const from = new Date(1_700_000_000_000 + r.int(20) * 60_000);
  const to = new Date(from.getTime() + r.int(25) * 60_000);
  const mixed = Array.from({ length: 4 }, () => mixedValue(r)).filter(
    (v) => v !== undefined && v !== null,
  );
  return [
    { filter: { t, ii }, sort: { at: -1, id: -1 }, index: 'list', served: true },
    { filter: { t, ii }, sort: { at: 1, id: 1 }, index: 'list', served: true },
    {
      filter: { t, ii, s: { $in: twoStatuses } },
      sort: { u: -1 },
      index: 'by_status',
      served: true,
    },
    {
      filter: { t, ii, s: { $in: twoStatuses } },
      sort: { u: 1 },
      index: 'by_status',
      served: true,
    },
    {
      filter: { t, ii, at: { $gte: from, $lt: to } },
      sort: { at: -1, id: -1 },
      index: 'list',
      served: true,
    },
    {
      filter: { t: { $in: ['t1', 't2'] }, ii },
      sort: { at: -1, id: -1 },
      index: 'list',
      served: true,
    },
    { filter: { m: { $gt: 3 } }, sort: { m: 1, id: 1 }, index: 'mixed', served: true },
    {
      filter: { m: { $gte: 's3', $lte: 's9' } },
      sort: { m: -1, id: -1 },
      index: 'mixed',
      served: true,
    },
    { filter: { m: { $in: mixed } }, sort: { m: -1, id: -1 }, index: 'mixed', served: true },
    { filter: {}, sort: { m: 1, id: 1 }, index: 'mixed', served: true },
    // Equality on null matches a null or missing field (both keyed as null): bounded, then matched.
    { filter: { t, ii, s: null }, sort: { u: -1 }, index: 'by_status', served: true },
    { filter: { m: null }, sort: { m: 1, id: 1 }, index: 'mixed', served: true },
    { filter: { m: { $eq: null } }, sort: { id: -1 }, index: 'mixed', served: true },
    { filter: { n: { $lt: 10 } }, sort: { ii: 1, id: 1 }, index: 'n', served: false },
    { filter: { t, s: { $exists: true }, n: { $gte: 5 } }, sort: { id: -1 }, served: true },
    // A few points of a unique index beat a longer bound range (a job's claim of the rows it
    // picked): MongoDB's trial run ends first on the points.
    {
      filter: { s: r.pick(STATUSES), at: { $lte: to }, id: { $in: [r.int(150), r.int(150)] } },
      sort: {},
      index: 'id',
    },
    { filter: { s: r.pick(STATUSES), at: { $lte: to }, id: r.int(150) }, sort: {}, index: 'id' },
  ];
}

async function expectSameAsFullScan(coll: Collection, shape: Shape, skip: number, limit: number) {
  const scanned = await coll.find(shape.filter, { hint: { $natural: 1 } }).toArray();
  const expected = referenceSort(scanned, shape.sort).slice(skip, skip + limit);
  const actual = await coll.find(shape.filter).sort(shape.sort).skip(skip).limit(limit).toArray();
  expect(actual, JSON.stringify(shape)).toEqual(expected);

  const count = await coll.countDocuments(shape.filter);
  expect(count, `count ${JSON.stringify(shape.filter)}`).toBe(scanned.length);
  const viaCommand = await db.command({ count: coll.collectionName, query: shape.filter });
  expect(viaCommand.n).toBe(scanned.length);

  const explain = await coll.find(shape.filter).sort(shape.sort).skip(skip).limit(limit).explain();
  const plan = stages(explain.queryPlanner.winningPlan as Document);
  const ixscan = plan.find((s) => s.stage === 'IXSCAN');
  if (shape.index) expect(ixscan?.indexName, JSON.stringify(shape)).toBe(shape.index);
  if (shape.served !== undefined)
    expect(
      plan.some((s) => s.stage === 'SORT'),
      JSON.stringify(shape),
    ).toBe(!shape.served);
  expect(explain.executionStats.nReturned).toBe(expected.length);
}

/** `$match` + `$group` counting per value (and `countDocuments`'s own pipeline) as a full scan does. */
async function expectSameGroups(coll: Collection, match: Document, by: string) {
  const pipeline = [{ $match: match }, { $group: { _id: by, c: { $sum: 1 }, twice: { $sum: 2 } } }];
  const byId = (docs: Document[]) => referenceSort(docs, { _id: 1 });
  const scanned = await coll.aggregate(pipeline, { hint: { $natural: 1 } }).toArray();
  const actual = await coll.aggregate(pipeline).toArray();
  expect(byId(actual), JSON.stringify(pipeline)).toEqual(byId(scanned));
  const explain = await coll.aggregate(pipeline).explain();
  const plan = stages(explain.queryPlanner.winningPlan as Document);
  expect(plan.map((s) => s.stage)).toEqual(['COUNT_SCAN']);
  expect(explain.executionStats.totalDocsExamined).toBe(0);
}

async function mutate(coll: Collection, seed: number, nextId: { v: number }) {
  const r = rng(seed * 13 + 5);
  for (let i = 0; i < 40; i++) {
    const id = r.int(nextId.v);
    const set: Document = {};
    for (const f of ['at', 's', 'ii', 'm', 'n', 'u']) {
      if (r.int(3) > 0) continue;
      const v = trackingRow(r, id)[f];
      set[f] = v === undefined ? null : v;
    }
    if (Object.keys(set).length) await coll.updateOne({ id }, { $set: set });
  }
  await coll.updateMany({ t: 't2', n: { $lt: 3 } }, { $set: { ii: 'c' }, $inc: { n: 100 } });
  await coll.deleteMany({ n: r.int(30) });
  await coll.deleteOne({ id: r.int(nextId.v) });
  await coll.updateMany({ n: { $gt: 25, $lt: 30 } }, { $unset: { s: '' } });
  const more = Array.from({ length: 30 }, () => trackingRow(r, nextId.v++));
  await coll.insertMany(more);
}

describe('index plans against a full scan (property-based over seeds)', () => {
  const SEEDS = Array.from({ length: 24 }, (_, i) => i + 1);

  it.each(SEEDS)(
    'seed %i: every plan shape answers as the full scan, before and after writes',
    async (seed) => {
      const coll = db.collection(`trackings_${seed}`);
      for (const idx of INDEXES)
        await coll.createIndex(idx.key, { name: idx.name, unique: idx.unique });
      const r = rng(seed);
      const nextId = { v: 0 };
      const rows = Array.from({ length: 150 + r.int(150) }, () => trackingRow(r, nextId.v++));
      // Shuffle so natural order differs from id order.
      for (let i = rows.length - 1; i > 0; i--) {
        const j = r.int(i + 1);
        [rows[i], rows[j]] = [rows[j]!, rows[i]!];
      }
      await coll.insertMany(rows);
      for (let round = 0; round < 2; round++) {
        for (const shape of shapes(seed + round * 1000)) {
          await expectSameAsFullScan(coll, shape, 0, 10);
          await expectSameAsFullScan(coll, shape, r.int(40), 1 + r.int(15));
          await expectSameAsFullScan(coll, shape, 0, 100_000);
        }
        await expectSameGroups(
          coll,
          { t: r.pick(['t1', 't2']), ii: r.pick(['a', 'b', 'c']) },
          '$s',
        );
        await expectSameGroups(coll, { t: r.pick(['t1', 't2']) }, '$ii');
        await expectSameGroups(coll, { t: 't1', ii: 'a', s: { $in: ['failed', 'pending'] } }, '$s');
        await mutate(coll, seed + round, nextId);
      }
    },
  );
});

describe('equality on null through an index', () => {
  it('bounds the scan to [null, null] and finds null and missing fields, through a dotted path too', async () => {
    const coll = db.collection<Document & { _id: number }>('null_points');
    await coll.createIndex({ t: 1, 'a.b': 1 }, { name: 'by_ab' });
    await coll.insertMany([
      { _id: 1, t: 'x' },
      { _id: 2, t: 'x', a: null },
      { _id: 3, t: 'x', a: 5 },
      { _id: 4, t: 'x', a: { b: null } },
      { _id: 5, t: 'x', a: { b: 1 } },
      { _id: 6, t: 'x', a: { c: 2 } },
      { _id: 7, t: 'y', a: { b: null } },
      { _id: 8, t: 'x', a: { b: 'null' } },
    ]);
    const filter = { t: 'x', 'a.b': null };
    const scanned = await coll
      .find(filter, { hint: { $natural: 1 } })
      .sort({ _id: 1 })
      .toArray();
    expect(scanned.map((d) => d._id)).toEqual([1, 2, 3, 4, 6]);
    expect(await coll.find(filter).sort({ _id: 1 }).toArray()).toEqual(scanned);
    expect(await coll.countDocuments(filter)).toBe(5);
    const explain = await coll.find(filter).explain('executionStats');
    const ixscan = stages(explain.queryPlanner.winningPlan as Document).find(
      (s) => s.stage === 'IXSCAN',
    );
    expect(ixscan?.indexBounds).toEqual({ t: ['["x", "x"]'], 'a.b': ['[null, null]'] });
    // Only the five keyed null were read: the bound is a point, not the whole tenant.
    expect(explain.executionStats.totalKeysExamined).toBe(5);
  });

  it('stays off a multikey index, where an array element without the field has no null key', async () => {
    const coll = db.collection<Document & { _id: number }>('null_multikey');
    await coll.createIndex({ t: 1, 'a.b': 1 }, { name: 'by_ab' });
    await coll.insertMany([
      { _id: 1, t: 'x', a: [{ b: 1 }, { c: 2 }] },
      { _id: 2, t: 'x', a: [{ b: 1 }, { b: 2 }] },
      { _id: 3, t: 'x', a: [{ b: null }] },
      { _id: 4, t: 'x' },
    ]);
    const filter = { t: 'x', 'a.b': null };
    const scanned = await coll
      .find(filter, { hint: { $natural: 1 } })
      .sort({ _id: 1 })
      .toArray();
    expect(await coll.find(filter).sort({ _id: 1 }).toArray()).toEqual(scanned);
    expect(await coll.countDocuments(filter)).toBe(scanned.length);
    const explain = await coll.find(filter).explain();
    const ixscan = stages(explain.queryPlanner.winningPlan as Document).find(
      (s) => s.stage === 'IXSCAN',
    );
    expect(ixscan?.indexBounds?.['a.b']).toEqual(['[MinKey, MaxKey]']);
  });
});

describe('a look-up by ids against a queue’s range', () => {
  it('takes the index fixed on every field when its points hold few keys, as the trial run would', async () => {
    const coll = db.collection<Document & { _id: number }>('ids_against_range');
    await coll.createIndex({ t: 1, id: 1 }, { name: 'by_id' });
    await coll.createIndex({ t: 1, ii: 1, s: 1, at: 1 }, { name: 'queue' });
    const at = new Date(1_700_000_000_000);
    await coll.insertMany(
      Array.from({ length: 300 }, (_, n) => ({ _id: n, t: 'x', id: n, ii: 'a', s: 'due', at })),
    );
    const ids = Array.from({ length: 40 }, (_, n) => n * 7);
    const filter = {
      t: 'x',
      ii: 'a',
      s: 'due',
      at: { $lte: new Date(at.getTime() + 1) },
      id: { $in: ids },
    };
    const explain = await coll.find(filter).explain('executionStats');
    const ixscan = stages(explain.queryPlanner.winningPlan as Document).find(
      (s) => s.stage === 'IXSCAN',
    );
    expect(ixscan?.indexName).toBe('by_id');
    expect(explain.executionStats.totalDocsExamined).toBe(40);
    // A point holding more keys than a trial run returns leaves the choice to the fields bound.
    const many = { t: 'x', ii: 'a', s: 'due', at: { $lte: new Date(at.getTime() + 1) } };
    await coll.createIndex({ t: 1, ii: 1 }, { name: 'by_instance' });
    const wide = await coll.find(many).explain('executionStats');
    expect(
      stages(wide.queryPlanner.winningPlan as Document).find((s) => s.stage === 'IXSCAN')
        ?.indexName,
    ).toBe('queue');
  });
});
