import mongoose from 'mongoose';
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';
import { stages } from './plan-oracle.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const names = (explain: Document) =>
  stages(explain.queryPlanner.winningPlan as Document).map((s) => s.stage as string);

describe('explain through mongoose and the driver', () => {
  const schema = new mongoose.Schema({
    tenant_id: String,
    instance: String,
    created_at: Date,
    id: Number,
    status: String,
    note: String,
  });
  schema.index({ tenant_id: 1, instance: 1, created_at: -1, id: -1 });
  schema.index({ tenant_id: 1, instance: 1, status: 1, created_at: -1 });

  it('names the index and counts keys and documents examined', async () => {
    const Tracking = h.conn.model('Tracking', schema);
    await Tracking.init();
    await Tracking.insertMany(
      Array.from({ length: 500 }, (_, i) => ({
        tenant_id: i % 2 ? 't1' : 't2',
        instance: 'ii',
        created_at: new Date(1_700_000_000_000 + i * 1000),
        id: i,
        status: ['a', 'b', 'c', 'd', 'e'][i % 5],
        note: i % 3 ? 'x' : 'y',
      })),
    );
    const list = { tenant_id: 't1', instance: 'ii' };
    const byDate = { created_at: -1, id: -1 } as const;

    const page = (await Tracking.find(list).sort(byDate).skip(20).limit(10).explain()) as Document;
    expect(names(page)).toEqual(['LIMIT', 'SKIP', 'FETCH', 'IXSCAN']);
    const ixscan = stages(page.queryPlanner.winningPlan).at(-1)!;
    expect(ixscan).toMatchObject({
      indexName: 'tenant_id_1_instance_1_created_at_-1_id_-1',
      direction: 'forward',
      indexBounds: { tenant_id: ['["t1", "t1"]'], instance: ['["ii", "ii"]'] },
    });
    // Exact bounds: the 20 skipped rows are passed over by index position; only the page is read.
    expect(page.executionStats).toMatchObject({
      nReturned: 10,
      totalKeysExamined: 10,
      totalDocsExamined: 10,
    });

    const ascending = (await Tracking.find(list)
      .sort({ created_at: 1, id: 1 })
      .limit(5)
      .explain()) as Document;
    expect(stages(ascending.queryPlanner.winningPlan).at(-1)!.direction).toBe('backward');

    // A filter on a field outside the index: documents are read and checked until the page is full.
    const withNote = (await Tracking.find({ ...list, note: 'y' })
      .sort(byDate)
      .limit(10)
      .explain()) as Document;
    expect(withNote.executionStats.nReturned).toBe(10);
    expect(withNote.executionStats.totalDocsExamined).toBeGreaterThan(10);
    expect(withNote.executionStats.totalDocsExamined).toBeLessThan(40);

    // $in on the status index, sorted by date: branches merged, no in-memory sort.
    const inStatus = (await Tracking.find({ ...list, status: { $in: ['b', 'd'] } })
      .sort({ created_at: -1 })
      .limit(10)
      .explain()) as Document;
    expect(names(inStatus)).toEqual(['LIMIT', 'FETCH', 'SORT_MERGE', 'IXSCAN', 'IXSCAN']);
    const scans = stages(inStatus.queryPlanner.winningPlan).filter((s) => s.stage === 'IXSCAN');
    expect(scans.map((s) => [s.indexName, s.indexBounds.status])).toEqual([
      ['tenant_id_1_instance_1_status_1_created_at_-1', ['["b", "b"]']],
      ['tenant_id_1_instance_1_status_1_created_at_-1', ['["d", "d"]']],
    ]);
    // Each scan reports its own keys; together they are the IXSCAN total.
    expect(scans[0]!.keysExamined + scans[1]!.keysExamined).toBe(
      inStatus.executionStats.totalKeysExamined,
    );

    // No usable index: a collection scan, sorted in memory.
    const scan = (await Tracking.find({ note: 'x' })
      .sort({ id: 1 })
      .limit(3)
      .explain()) as Document;
    expect(names(scan)).toEqual(['LIMIT', 'SORT', 'COLLSCAN']);
    expect(scan.executionStats.totalDocsExamined).toBe(500);

    // A covered count reads no document.
    const db = h.conn.db!;
    const count = await db.command({
      explain: { count: 'trackings', query: { ...list, status: 'c' } },
    });
    expect(names(count)).toEqual(['COUNT', 'COUNT_SCAN']);
    expect(count.executionStats).toMatchObject({
      nReturned: 50,
      totalDocsExamined: 0,
      totalKeysExamined: 50,
    });
    expect(await Tracking.countDocuments({ ...list, status: 'c' })).toBe(50);
  });
});

describe('order of ties and multikey fields', () => {
  it('breaks ties in natural order walking forwards, reversed walking backwards (as RecordIds)', async () => {
    const coll = h.conn.db!.collection('ties');
    await coll.createIndex({ g: 1 });
    const rows = [3, 1, 2, 1, 3, 2, 1].map((g, i) => ({ g, i }));
    await coll.insertMany(rows);
    const forward = await coll.find({}).sort({ g: 1 }).toArray();
    expect(forward.map((d) => d.i)).toEqual([1, 3, 6, 2, 5, 0, 4]);
    const backward = await coll.find({}).sort({ g: -1 }).toArray();
    expect(backward.map((d) => d.i)).toEqual([4, 0, 5, 2, 6, 3, 1]);
    // Without an index the sort is in memory and stable: ties stay in natural order.
    const inMemory = await coll.find({}).sort({ i: 1 }).sort({ h: 1, g: -1 }).toArray();
    expect(inMemory.map((d) => d.i)).toEqual([0, 4, 2, 5, 1, 3, 6]);
  });

  it('answers equality, $in and ranges on an array field once per document, and sorts arrays by their bounds', async () => {
    const coll = h.conn.db!.collection('tagged');
    await coll.createIndex({ tags: 1 });
    await coll.insertMany([
      { i: 0, tags: ['b', 'x'] },
      { i: 1, tags: ['a'] },
      { i: 2, tags: 'x' },
      { i: 3, tags: [] },
      { i: 4, tags: ['x', 'c', 'x'] },
      { i: 5 },
    ]);
    const ids = async (filter: Document, sort: Document = { i: 1 }) =>
      (await coll.find(filter).sort(sort).toArray()).map((d) => d.i);
    expect(await ids({ tags: 'x' })).toEqual([0, 2, 4]);
    expect(await ids({ tags: { $in: ['x', 'b'] } })).toEqual([0, 2, 4]);
    expect(await ids({ tags: { $gte: 'b', $lt: 'd' } })).toEqual([0, 4]);
    expect(await coll.countDocuments({ tags: { $in: ['x', 'a'] } })).toBe(4);
    // Ascending by the least element, descending by the greatest; missing/empty sort first.
    expect(await ids({ tags: { $exists: true, $ne: [] } }, { tags: 1 })).toEqual([1, 0, 4, 2]);
    expect(await ids({ tags: { $in: ['a', 'b', 'c', 'x'] } }, { tags: -1, i: 1 })).toEqual([
      0, 2, 4, 1,
    ]);
  });
});

describe('the _id index', () => {
  // Its entries are built when a query first needs them, then kept up to date by every write.
  it('serves _id ranges and sorts as a full scan answers them, before and after later writes', async () => {
    const coll = h.conn.db!.collection<{ _id: number; v: number }>('by_id');
    const ids = [5, 3, 9, 1, 7, 2, 8, 6, 4, 0];
    await coll.insertMany(ids.map((_id) => ({ _id, v: _id * 10 })));
    await coll.deleteOne({ _id: 7 });
    await coll.updateOne({ _id: 2 }, { $set: { v: -1 } });
    const expectIndexed = async (filter: Document, sort: Record<string, 1 | -1>) => {
      const scan = await coll.find(filter, { hint: { $natural: 1 } }).toArray();
      const dir = Object.values(sort)[0]!;
      const expected = scan.sort((a, b) => (a._id - b._id) * dir);
      expect(await coll.find(filter).sort(sort).toArray()).toEqual(expected);
      const explain = await coll.find(filter).sort(sort).explain();
      expect(names(explain)).toEqual(['FETCH', 'IXSCAN']);
    };
    await expectIndexed({ _id: { $gte: 2, $lt: 8 } }, { _id: 1 });
    await coll.insertMany([
      { _id: 11, v: 0 },
      { _id: -1, v: 0 },
    ]);
    await coll.deleteOne({ _id: 3 });
    await coll.replaceOne({ _id: 4 }, { v: 44 });
    await expectIndexed({}, { _id: -1 });
    await expectIndexed({ _id: { $gt: 0 } }, { _id: 1 });
    expect(await coll.countDocuments({ _id: { $lte: 4 } })).toBe(5);
  });
});

describe('serverStatus metrics.queryExecutor', () => {
  const examined = async () => {
    const status = await h.conn.db!.admin().command({ serverStatus: 1 });
    return status.metrics.queryExecutor as { scanned: number; scannedObjects: number };
  };
  const delta = async (operation: () => Promise<unknown>) => {
    const before = await examined();
    await operation();
    const after = await examined();
    return {
      scanned: after.scanned - before.scanned,
      scannedObjects: after.scannedObjects - before.scannedObjects,
    };
  };

  it('counts the keys and documents that queries, updates and deletes examine', async () => {
    const coll = h.conn.db!.collection<{ _id: number; k: number; free: number }>('examined');
    await coll.createIndex({ k: 1 });
    await coll.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: i, k: i, free: i })));
    expect(await delta(() => coll.find({ k: { $gte: 10, $lt: 13 } }).toArray())).toEqual({
      scanned: 3,
      scannedObjects: 3,
    });
    expect(await delta(() => coll.find({ free: 7 }).toArray())).toEqual({
      scanned: 0,
      scannedObjects: 100,
    });
    expect(
      await delta(() => coll.updateMany({ free: { $lt: 5 } }, { $set: { free: -1 } })),
    ).toEqual({ scanned: 0, scannedObjects: 100 });
    expect(await delta(() => coll.deleteOne({ k: 50 }))).toEqual({ scanned: 1, scannedObjects: 1 });
  });
});
