import { MongoClient, ObjectId } from 'mongodb';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

interface OpsDoc {
  a?: number;
  b: string;
  n: number;
  arr: number[];
  set: string[];
  lo: number;
  hi: number;
  old?: string;
  renamed?: string;
  grades: { g: number; top?: boolean }[];
  touched?: Date;
  seen?: number;
  never?: boolean;
}

let h: Harness;
let client: MongoClient;

beforeAll(async () => {
  h = await startHarness();
  client = await new MongoClient(h.server.url).connect();
});
afterAll(async () => {
  await client.close();
  await h.close();
});

describe('CRUD through mongoose', () => {
  it('creates, reads, updates and deletes', async () => {
    const Item = h.conn.model(
      'CrudItem',
      new mongoose.Schema({ sku: String, qty: Number, tags: [String] }),
    );
    const created = await Item.create({ sku: 'A1', qty: 3, tags: ['x'] });
    expect((await Item.findById(created._id).lean())?.sku).toBe('A1');
    const upd = await Item.updateOne({ _id: created._id }, { $set: { qty: 4 } });
    expect(upd).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    const same = await Item.updateOne({ _id: created._id }, { $set: { qty: 4 } });
    expect(same).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    await Item.insertMany([
      { sku: 'B', qty: 1 },
      { sku: 'C', qty: 2 },
    ]);
    expect(await Item.countDocuments()).toBe(3);
    const del = await Item.deleteMany({ qty: { $lt: 3 } });
    expect(del.deletedCount).toBe(2);
    expect(await Item.find().lean()).toHaveLength(1);
    expect(await Item.exists({ sku: 'A1' })).toBeTruthy();
  });

  it('applies every update operator', async () => {
    const coll = client.db('ops').collection<OpsDoc>('docs');
    const { insertedId } = await coll.insertOne({
      a: 1,
      b: 'x',
      n: 5,
      arr: [1, 2, 3],
      set: ['p'],
      lo: 10,
      hi: 10,
      old: 'v',
      grades: [{ g: 80 }, { g: 95 }],
    });
    await coll.updateOne(
      { _id: insertedId },
      { $set: { b: 'y' }, $unset: { a: '' }, $inc: { n: 2 } },
    );
    await coll.updateOne(
      { _id: insertedId },
      { $push: { arr: 4 }, $pull: { set: 'zz' }, $addToSet: { set: 'q' } },
    );
    await coll.updateOne({ _id: insertedId }, { $pull: { arr: 1 }, $addToSet: { set: 'p' } });
    await coll.updateOne(
      { _id: insertedId },
      {
        $min: { lo: 3 },
        $max: { hi: 20 },
        $currentDate: { touched: true },
        $rename: { old: 'renamed' },
      },
    );
    await coll.updateOne(
      { _id: insertedId },
      { $set: { 'grades.$[el].top': true } },
      { arrayFilters: [{ 'el.g': { $gte: 90 } }] },
    );
    await coll.updateOne(
      { _id: insertedId },
      { $setOnInsert: { never: true }, $set: { seen: 1 } },
      { upsert: true },
    );
    const doc = await coll.findOne({ _id: insertedId });
    expect(doc).toMatchObject({
      b: 'y',
      n: 7,
      arr: [2, 3, 4],
      set: ['p', 'q'],
      lo: 3,
      hi: 20,
      renamed: 'v',
      seen: 1,
    });
    expect(doc).not.toHaveProperty('a');
    expect(doc).not.toHaveProperty('old');
    expect(doc).not.toHaveProperty('never');
    expect(doc?.touched).toBeInstanceOf(Date);
    expect(doc?.grades).toEqual([{ g: 80 }, { g: 95, top: true }]);
  });

  it('upserts seed from the query and honour $setOnInsert', async () => {
    const coll = client.db('ops').collection('upserts');
    const r = await coll.updateOne(
      { key: 'k1' },
      { $set: { v: 1 }, $setOnInsert: { created: 'yes' } },
      { upsert: true },
    );
    expect(r.upsertedCount).toBe(1);
    expect(r.upsertedId).toBeInstanceOf(ObjectId);
    await coll.updateOne(
      { key: 'k1' },
      { $set: { v: 2 }, $setOnInsert: { created: 'again' } },
      { upsert: true },
    );
    expect(await coll.findOne({ key: 'k1' }, { projection: { _id: 0 } })).toEqual({
      key: 'k1',
      v: 2,
      created: 'yes',
    });
    const rep = await coll.replaceOne({ key: 'k2' }, { key: 'k2', whole: true }, { upsert: true });
    expect(rep.upsertedCount).toBe(1);
    const many = await coll.updateMany({ key: { $in: ['k1', 'k2'] } }, { $set: { all: true } });
    expect(many).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
  });

  it('sorts ties stably, pages with skip/limit and counts totals', async () => {
    const Row = h.conn.model('PageRow', new mongoose.Schema({ group: Number, i: Number }));
    await Row.insertMany(Array.from({ length: 30 }, (_, i) => ({ group: i % 3, i })));
    const sorted = await Row.find().sort({ group: 1 }).lean();
    const group0 = sorted.filter((r) => r.group === 0).map((r) => r.i);
    expect(group0).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27]);
    const byId = await Row.find({ group: 1 }).sort({ group: -1, _id: -1 }).lean();
    expect(byId.map((r) => r.i)).toEqual([28, 25, 22, 19, 16, 13, 10, 7, 4, 1]);
    const page2 = await Row.find().sort({ i: 1 }).skip(10).limit(10).lean();
    expect(page2.map((r) => r.i)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(await Row.countDocuments({ group: 2 })).toBe(10);
    expect(await Row.countDocuments()).toBe(30);
  });

  it("answers equality on a compound key's first two fields right through writes", async () => {
    const schema = new mongoose.Schema({ tenant: String, token: Number, at: Date, status: Number });
    schema.index({ tenant: 1, token: 1, at: -1 });
    const Log = h.conn.model('PairLog', schema);
    await Log.init();
    await Log.insertMany(
      Array.from({ length: 60 }, (_, i) => ({
        tenant: `t${i % 2}`,
        token: i % 3,
        at: new Date(1_700_000_000_000 + i * 1000),
        status: i % 4 === 0 ? 500 : 200,
      })),
    );
    const page = (token: number) =>
      Log.find({ tenant: 't0', token, status: 200 })
        .sort({ at: -1 })
        .limit(3)
        .lean()
        .then((rows) => rows.map((r) => r.at!.getTime() - 1_700_000_000_000));
    // i even (t0), i % 3 === 1, i % 4 !== 0: 58, 46, 34, ...
    expect(await page(1)).toEqual([58_000, 46_000, 34_000]);
    expect(await Log.countDocuments({ tenant: 't0', token: 1 })).toBe(10);

    // Moving documents between pairs and deleting them keeps the answers exact.
    await Log.updateMany({ tenant: 't0', token: 1 }, { $set: { token: 7 } });
    expect(await Log.countDocuments({ tenant: 't0', token: 1 })).toBe(0);
    expect(await Log.countDocuments({ tenant: 't0', token: 7 })).toBe(10);
    await Log.deleteMany({ tenant: 't0', token: 7, status: 500 });
    expect(await Log.countDocuments({ tenant: 't0', token: { $in: [7, 2] } })).toBe(10 - 5 + 10);
    expect(await page(7)).toEqual([58_000, 46_000, 34_000]);
    expect(await Log.countDocuments({ tenant: 't1', token: 1 })).toBe(10);
  });

  it('iterates cursors beyond the first batch of 101 (getMore)', async () => {
    const coll = client.db('ops').collection('many');
    await coll.insertMany(Array.from({ length: 350 }, (_, i) => ({ i })));
    const all = await coll.find({}, { batchSize: 50 }).toArray();
    expect(all).toHaveLength(350);
    const viaDefault = await coll
      .find({ i: { $gte: 0 } })
      .sort({ i: -1 })
      .toArray();
    expect(viaDefault[0]?.i).toBe(349);
    expect(viaDefault).toHaveLength(350);
    const Many = h.conn.model('ManyDoc', new mongoose.Schema({ i: Number }), 'many');
    await Many.insertMany(Array.from({ length: 350 }, (_, i) => ({ i })));
    let seen = 0;
    for await (const _doc of Many.find().cursor()) seen++;
    expect(seen).toBe(350);
  });

  it('round-trips Dates and ObjectIds', async () => {
    const ref = new ObjectId();
    const when = new Date('2024-05-06T07:08:09.123Z');
    const Evt = h.conn.model(
      'Evt',
      new mongoose.Schema({ ref: mongoose.Schema.Types.ObjectId, when: Date }),
    );
    await Evt.create({ ref, when });
    const back = await Evt.findOne({ ref }).lean();
    expect(back?.ref).toBeInstanceOf(ObjectId);
    expect(String(back?.ref)).toBe(String(ref));
    expect(back?.when?.getTime()).toBe(when.getTime());
    expect(
      await Evt.countDocuments({
        when: { $gte: new Date('2024-01-01'), $lt: new Date('2025-01-01') },
      }),
    ).toBe(1);
  });

  it('filters with $in, $regex and ranges', async () => {
    const coll = client.db('ops').collection('filters');
    await coll.insertMany([
      { name: 'apple', p: 1 },
      { name: 'Apricot', p: 5 },
      { name: 'banana', p: 9 },
    ]);
    expect(await coll.countDocuments({ name: { $in: ['apple', 'banana'] } })).toBe(2);
    expect(await coll.countDocuments({ name: { $regex: '^ap', $options: 'i' } })).toBe(2);
    expect(await coll.countDocuments({ name: /an/ })).toBe(1);
    expect(await coll.countDocuments({ p: { $gt: 1, $lte: 9 } })).toBe(2);
    expect(await coll.distinct('name', { p: { $lt: 6 } })).toEqual(['apple', 'Apricot']);
  });

  it('aggregates with $group, $facet, $lookup, $unwind, $count', async () => {
    const db = client.db('agg');
    await db.collection('orders').insertMany([
      { cust: 'a', amount: 10, items: ['x', 'y'] },
      { cust: 'a', amount: 20, items: ['x'] },
      { cust: 'b', amount: 6, items: [] },
    ]);
    await db.collection('customers').insertMany([
      { _id: 'a' as never, name: 'Ann' },
      { _id: 'b' as never, name: 'Bob' },
    ]);
    const avg = await db
      .collection('orders')
      .aggregate([{ $group: { _id: '$cust', avg: { $avg: '$amount' } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(avg).toEqual([
      { _id: 'a', avg: 15 },
      { _id: 'b', avg: 6 },
    ]);
    const [facet] = await db
      .collection('orders')
      .aggregate([
        {
          $facet: {
            total: [{ $count: 'n' }],
            big: [{ $match: { amount: { $gte: 10 } } }, { $project: { _id: 0, amount: 1 } }],
          },
        },
      ])
      .toArray();
    expect(facet).toEqual({ total: [{ n: 3 }], big: [{ amount: 10 }, { amount: 20 }] });
    const joined = await db
      .collection('orders')
      .aggregate([
        { $match: { cust: 'a' } },
        { $unwind: '$items' },
        { $lookup: { from: 'customers', localField: 'cust', foreignField: '_id', as: 'c' } },
        { $project: { _id: 0, item: '$items', name: { $first: '$c.name' } } },
      ])
      .toArray();
    expect(joined).toEqual([
      { item: 'x', name: 'Ann' },
      { item: 'y', name: 'Ann' },
      { item: 'x', name: 'Ann' },
    ]);
    expect(await db.collection('customers').findOne({ _id: 'a' as never })).toEqual({
      _id: 'a',
      name: 'Ann',
    });
  });

  it('manages collections and indexes', async () => {
    const db = client.db('admin_ops');
    await db.createCollection('c1');
    await expect(db.createCollection('c1')).rejects.toMatchObject({ codeName: 'NamespaceExists' });
    await db.collection('c1').createIndex({ a: 1, b: -1 }, { name: 'ab' });
    expect((await db.collection('c1').listIndexes().toArray()).map((i) => i.name)).toEqual([
      '_id_',
      'ab',
    ]);
    await db.collection('c1').dropIndex('ab');
    expect((await db.listCollections().toArray()).map((c) => c.name)).toEqual(['c1']);
    // Its own database, listed while it holds a collection (not one another test created).
    const dbs = await client.db().admin().listDatabases();
    expect(dbs.databases.map((d) => d.name)).toContain('admin_ops');
    expect(await db.collection('c1').drop()).toBe(true);
  });

  it('a write that matches nothing and does not upsert creates no collection, as MongoDB', async () => {
    const db = client.db('implicit');
    const names = async () => (await db.listCollections().toArray()).map((c) => c.name);
    const c = db.collection('ghost');
    expect((await c.updateOne({ a: 1 }, { $set: { b: 1 } })).matchedCount).toBe(0);
    expect(await c.findOneAndUpdate({ a: 1 }, { $set: { b: 1 } })).toBeNull();
    expect(await c.findOneAndDelete({ a: 1 })).toBeNull();
    await c.deleteMany({ a: 1 });
    // The driver's bulk test: a hinted update, then a hinted delete, on a collection never created.
    await c.bulkWrite([
      { updateOne: { filter: { b: 1 }, update: { $set: { b: 2 } }, hint: { b: 1 } } },
      { deleteOne: { filter: { b: 2 }, hint: { b: 1 } } },
    ]);
    expect(await names()).toEqual([]);
    await c.updateOne({ a: 1 }, { $set: { b: 1 } }, { upsert: true });
    await db.collection('ghost2').findOneAndUpdate({ a: 1 }, { $set: { b: 1 } }, { upsert: true });
    expect((await names()).sort()).toEqual(['ghost', 'ghost2']);
    await expect(db.collection('bad$name').updateOne({}, { $set: { a: 1 } })).rejects.toMatchObject(
      { code: 73 },
    );
  });

  it('dropping a collection that does not exist succeeds, as MongoDB 7.0 answers', async () => {
    const db = client.db('admin_ops');
    expect(await db.command({ drop: 'never_created' })).toEqual({ ok: 1 });
    expect(await db.dropCollection('never_created')).toBe(true);
    expect((await db.listCollections().toArray()).map((c) => c.name)).not.toContain(
      'never_created',
    );
  });

  it('$max replaces a null or missing value (null sorts before dates and numbers)', async () => {
    const coll = client
      .db('ops')
      .collection<{ _id: string; last_used_at?: Date | null; n?: number | null }>('maxnull');
    await coll.insertMany([{ _id: 'null', last_used_at: null, n: null }, { _id: 'missing' }]);
    const at = new Date('2024-05-01T00:00:00Z');
    for (const _id of ['null', 'missing']) {
      const res = await coll.updateOne({ _id }, { $max: { last_used_at: at, n: 3 } });
      expect(res.modifiedCount, _id).toBe(1);
      expect(await coll.findOne({ _id })).toEqual({ _id, last_used_at: at, n: 3 });
    }
    // And then behaves as a max: an older date / smaller number does not overwrite.
    const older = await coll.findOneAndUpdate(
      { _id: 'null' },
      { $max: { last_used_at: new Date('2020-01-01T00:00:00Z'), n: 1 } },
      { returnDocument: 'after' },
    );
    expect(older).toEqual({ _id: 'null', last_used_at: at, n: 3 });
    const newer = new Date('2025-01-01T00:00:00Z');
    await coll.updateOne({ _id: 'null' }, { $max: { last_used_at: newer } });
    expect((await coll.findOne({ _id: 'null' }))?.last_used_at).toEqual(newer);
  });

  it('answers unknown commands with CommandNotFound (59)', async () => {
    await expect(client.db('x').command({ frobnicate: 1 })).rejects.toMatchObject({
      code: 59,
      codeName: 'CommandNotFound',
    });
  });

  it('rejects transactions with a clear IllegalOperation error', async () => {
    const session = client.startSession();
    session.startTransaction();
    const err = await client
      .db('ops')
      .collection('txn')
      .insertOne({ a: 1 }, { session })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 20 });
    expect(String((err as Error).message)).toMatch(
      /Transaction numbers are only allowed on a replica set member or mongos/,
    );
    await session.endSession();
    expect(await client.db('ops').collection('txn').countDocuments()).toBe(0);
  });
});
