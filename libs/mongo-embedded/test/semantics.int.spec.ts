import { Binary, MongoClient } from 'mongodb';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

// Each case is what MongoDB documents as the answer for the operation mongoose (or the driver) sends.
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

describe('$pull and $pullAll', () => {
  interface OrderDoc {
    lines: { sku: string; qty: number }[];
    tags: string[] | string;
    n: number[];
  }
  const Order = () =>
    (h.conn.models.PullOrder as mongoose.Model<OrderDoc> | undefined) ??
    h.conn.model<OrderDoc>(
      'PullOrder',
      new mongoose.Schema({
        lines: [new mongoose.Schema({ sku: String, qty: Number }, { _id: false })],
        tags: [String],
        n: [Number],
      }),
    );

  it('removes a subdocument without _id through doc.arr.pull(subdoc) ($pull with $or)', async () => {
    const order = await Order().create({
      lines: [
        { sku: 'a', qty: 1 },
        { sku: 'b', qty: 2 },
      ],
    });
    (order.lines as unknown as mongoose.Types.DocumentArray<object>).pull(order.lines[0]!);
    await order.save();
    const stored = await Order().findById(order._id).lean();
    expect(stored?.lines).toEqual([{ sku: 'b', qty: 2 }]);
  });

  it('matches $pull conditions as queries on document elements and as values on scalars', async () => {
    const order = await Order().create({
      lines: [
        { sku: 'a', qty: 1 },
        { sku: 'b', qty: 5 },
        { sku: 'c', qty: 9 },
      ],
      n: [1, 5, 9],
    });
    await Order().updateOne(
      { _id: order._id },
      { $pull: { lines: { $and: [{ qty: { $gte: 5 } }, { sku: { $ne: 'c' } }] }, n: { $gte: 5 } } },
    );
    const stored = await Order().findById(order._id).lean();
    expect(stored?.lines.map((l) => l.sku)).toEqual(['a', 'c']);
    expect(stored?.n).toEqual([1]);
    await Order().updateOne({ _id: order._id }, { $pull: { lines: { qty: 9 } } });
    expect((await Order().findById(order._id).lean())?.lines).toEqual([{ sku: 'a', qty: 1 }]);
  });

  it('inserts on an upsert whose update has $pull or $pullAll', async () => {
    const a = await Order().updateOne(
      { _id: new mongoose.Types.ObjectId() },
      { $pull: { tags: 'x' }, $set: { n: [1] } },
      { upsert: true },
    );
    expect(a.upsertedCount).toBe(1);
    const b = await Order()
      .findOneAndUpdate(
        { tags: 'nobody-has-this' },
        { $pullAll: { n: [1, 2] } },
        { upsert: true, new: true },
      )
      .lean();
    // The filter's equality seeds the new document, as MongoDB does.
    expect(b?.tags).toBe('nobody-has-this');
  });

  it('refuses $pull on a non-array value', async () => {
    const coll = client.db('sem').collection('pull_scalar');
    await coll.insertOne({ _id: 1 as never, v: 5 });
    await expect(
      coll.updateOne({ _id: 1 as never }, { $pull: { v: 5 } as never }),
    ).rejects.toMatchObject({
      code: 2,
    });
  });
});

describe('find projections', () => {
  interface PostDoc {
    title: string;
    comments: number[];
    child?: { name: string; age: number };
    grades: { s: number; g: string }[];
  }
  const Post = () =>
    (h.conn.models.ProjPost as mongoose.Model<PostDoc> | undefined) ??
    h.conn.model<PostDoc>(
      'ProjPost',
      new mongoose.Schema({
        title: String,
        comments: [Number],
        child: { name: String, age: Number },
        grades: [{ _id: false, s: Number, g: String }],
      }),
    );

  it('keeps every other field when the projection only has $slice', async () => {
    const p = await Post().create({ title: 't', comments: [1, 2, 3, 4] });
    const got = await Post()
      .findById(p._id, { comments: { $slice: 2 } })
      .lean();
    expect(got).toMatchObject({ title: 't', comments: [1, 2] });
    const last = await Post()
      .findById(p._id, { comments: { $slice: -1 }, title: 1 })
      .lean();
    expect(Object.keys(last!)).toEqual(['_id', 'title', 'comments']);
    expect(last?.comments).toEqual([4]);
  });

  it('does not invent a missing subdocument for a nested inclusion', async () => {
    const p = await Post().create({ title: 'no child' });
    expect(await Post().findById(p._id, { 'child.name': 1 }).lean()).toEqual({ _id: p._id });
    expect(
      await Post()
        .findById(p._id, { child: { name: 1 } })
        .lean(),
    ).toEqual({ _id: p._id });
    const q = await Post().create({ title: 'child', child: { name: 'n', age: 3 } });
    expect(await Post().findById(q._id, { 'child.name': 1 }).lean()).toEqual({
      _id: q._id,
      child: { name: 'n' },
    });
  });

  it('answers $elemMatch and positional $ projections with the first matching element', async () => {
    const p = await Post().create({
      title: 'g',
      grades: [
        { s: 1, g: 'a' },
        { s: 2, g: 'b' },
        { s: 2, g: 'c' },
      ],
    });
    const em = await Post()
      .findById(p._id, { grades: { $elemMatch: { s: 2 } } })
      .lean();
    expect(em).toEqual({ _id: p._id, grades: [{ s: 2, g: 'b' }] });
    const pos = await Post().findOne({ _id: p._id, 'grades.g': 'c' }, { 'grades.$': 1 }).lean();
    expect(pos).toEqual({ _id: p._id, grades: [{ s: 2, g: 'c' }] });
  });

  it('returns _id first and refuses mixed inclusion and exclusion (31254)', async () => {
    const p = await Post().create({ title: 'order', comments: [1] });
    const got = await Post().findById(p._id, { comments: 1, title: 1 }).lean();
    expect(Object.keys(got!)).toEqual(['_id', 'title', 'comments']);
    await expect(Post().findById(p._id, { title: 1, comments: 0 }).lean()).rejects.toMatchObject({
      code: 31254,
    });
  });
});

describe('query operators', () => {
  it('$all matches a scalar field equal to its value', async () => {
    const Tag = h.conn.model('AllTag', new mongoose.Schema({ tag: String, tags: [String] }));
    await Tag.create([{ tag: 'x' }, { tags: ['x', 'y'] }, { tags: ['y'] }]);
    expect(await Tag.countDocuments({ tag: { $all: ['x'] } })).toBe(1);
    expect(await Tag.countDocuments({ tags: { $all: ['x', 'y'] } })).toBe(1);
    expect(await Tag.countDocuments({ tags: { $all: [] } })).toBe(0);
  });

  it('orders binary values by length, then subtype, then bytes', async () => {
    const coll = client.db('sem').collection('bins');
    await coll.insertMany([
      { _id: 1 as never, b: new Binary(Buffer.from([1, 2])) },
      { _id: 2 as never, b: new Binary(Buffer.from([3])) },
      { _id: 3 as never, b: new Binary(Buffer.from([0])) },
    ]);
    const ids = async (filter: object) =>
      (await coll.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(await ids({ b: { $gt: new Binary(Buffer.from([1])) } })).toEqual([1, 2]);
    expect(await ids({ b: { $lt: new Binary(Buffer.from([1])) } })).toEqual([3]);
    expect(await ids({ b: { $lte: new Binary(Buffer.from([9, 9])) } })).toEqual([1, 2, 3]);
  });
  it('compares Buffer values in ranges as MongoDB orders BinData, through mongoose', async () => {
    const Blob = h.conn.model('RangeBlob', new mongoose.Schema({ n: Number, b: Buffer }));
    await Blob.create([
      { n: 1, b: Buffer.from([1, 2]) },
      { n: 2, b: Buffer.from([3]) },
      { n: 3, b: Buffer.from([0]) },
    ]);
    const ns = async (filter: object) =>
      (await Blob.find(filter).sort({ n: 1 }).lean()).map((d) => d.n);
    // Shorter sorts first, whatever the bytes: [3] < [1, 2].
    expect(await ns({ b: { $gt: Buffer.from([1]) } })).toEqual([1, 2]);
    expect(await ns({ b: { $lt: Buffer.from([1]) } })).toEqual([3]);
    expect(await ns({ b: { $gte: Buffer.from([0, 0]) } })).toEqual([1]);
    expect((await Blob.find().sort({ b: -1 }).lean()).map((d) => d.n)).toEqual([1, 2, 3]);
  });
});

describe('_id', () => {
  it('upserts {_id: null} through mongoose with a null _id', async () => {
    const Slot = h.conn.model(
      'NullIdSlot',
      new mongoose.Schema({ _id: mongoose.Schema.Types.Mixed, v: Number }, { versionKey: false }),
    );
    const res = await Slot.updateOne({ _id: null }, { $set: { v: 1 } }, { upsert: true });
    expect(res.upsertedCount).toBe(1);
    expect(await Slot.find().lean()).toEqual([{ _id: null, v: 1 }]);
    // A second upsert finds the same document instead of inventing another.
    await Slot.updateOne({ _id: null }, { $inc: { v: 1 } }, { upsert: true });
    expect(await Slot.find().lean()).toEqual([{ _id: null, v: 2 }]);
  });

  it('upserts {_id: null} with a null _id rather than a generated one', async () => {
    const coll = client.db('sem').collection('nullid');
    const res = await coll.updateOne({ _id: null as never }, { $set: { v: 1 } }, { upsert: true });
    expect(res.upsertedId).toBeNull();
    expect(await coll.find({}).toArray()).toEqual([{ _id: null, v: 1 }]);
  });

  it('keeps document order with _id first in an aggregation $project of plain inclusions', async () => {
    const coll = client.db('sem').collection('aggorder');
    await coll.insertOne({ _id: 'k' as never, a: 1, b: 2, c: 3 });
    const [inc] = await coll.aggregate([{ $project: { c: 1, a: 1 } }]).toArray();
    expect(Object.keys(inc!)).toEqual(['_id', 'a', 'c']);
    const [exc] = await coll.aggregate([{ $match: { a: 1 } }, { $project: { b: 0 } }]).toArray();
    expect(exc).toEqual({ _id: 'k', a: 1, c: 3 });
    const [computed] = await coll
      .aggregate([{ $project: { sum: { $add: ['$a', '$b'] } } }])
      .toArray();
    expect(computed).toEqual({ _id: 'k', sum: 3 });
  });

  it('returns _id as the first field', async () => {
    const coll = client.db('sem').collection('idfirst');
    await coll.insertOne({ a: 1, _id: 'k' as never });
    await coll.updateOne({ _id: 'u' as never }, { $set: { a: 1 } }, { upsert: true });
    for (const d of await coll.find({}, { projection: { a: 1 } }).toArray())
      expect(Object.keys(d)[0]).toBe('_id');
  });
});
