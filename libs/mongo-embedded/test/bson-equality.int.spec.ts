import {
  Binary,
  Code,
  DBRef,
  Decimal128,
  Double,
  Long,
  MaxKey,
  MinKey,
  MongoClient,
  ObjectId,
  type Collection,
} from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Issue 47, items 3 and 8: equality on BSON values mingo cannot compare, and Decimal128 compared
// with the other numeric types exactly, as MongoDB 7 does.
let server: EmbeddedMongo;
let client: MongoClient;
const oid = new ObjectId();

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const idsOf = async (coll: Collection, filter: object) =>
  (await coll.find(filter, { sort: { _id: 1 } }).toArray()).map((d) => d._id as unknown);

describe('equality on MinKey, MaxKey, Code and DBRef (item 3)', () => {
  let coll: Collection;
  beforeAll(async () => {
    coll = client.db('eq').collection('special');
    await coll.insertMany([
      { _id: 1 as never, v: new MinKey() },
      { _id: 2 as never, v: new MaxKey() },
      { _id: 3 as never, v: new Code('f()') },
      { _id: 4 as never, v: new Code('g()') },
      { _id: 5 as never, v: new DBRef('members', oid) },
      { _id: 6 as never, v: new DBRef('members', new ObjectId()) },
      { _id: 7 as never, v: [new MinKey(), 1] },
    ]);
  });

  it('$eq and a plain value match the equal value only', async () => {
    expect(await idsOf(coll, { v: new MinKey() })).toEqual([1, 7]);
    expect(await idsOf(coll, { v: { $eq: new MaxKey() } })).toEqual([2]);
    expect(await idsOf(coll, { v: new Code('f()') })).toEqual([3]);
    expect(await idsOf(coll, { v: new DBRef('members', oid) })).toEqual([5]);
  });

  it('$in, $ne and $nin agree with $eq', async () => {
    expect(await idsOf(coll, { v: { $in: [new MaxKey(), new Code('g()'), 'none'] } })).toEqual([
      2, 4,
    ]);
    expect(await idsOf(coll, { v: { $ne: new MinKey() } })).toEqual([2, 3, 4, 5, 6]);
    expect(await idsOf(coll, { v: { $nin: [new MinKey(), new MaxKey()] } })).toEqual([3, 4, 5, 6]);
    expect(await coll.countDocuments({ v: new MinKey() })).toBe(2);
  });
});

describe('Decimal128 against the other numeric types (item 8)', () => {
  let coll: Collection;
  beforeAll(async () => {
    coll = client.db('eq').collection('decimal');
    await coll.insertMany([
      { _id: 1 as never, d: Decimal128.fromString('1.5') },
      { _id: 2 as never, d: Decimal128.fromString('2.00') },
      { _id: 3 as never, d: Decimal128.fromString('3') },
      { _id: 4 as never, d: 2.5 },
      { _id: 5 as never, d: Long.fromNumber(4) },
      { _id: 6 as never, d: Decimal128.fromString('0.1') },
      { _id: 7 as never, d: 'text' },
    ]);
  });

  it('ranges compare decimals with numbers by value', async () => {
    expect(await idsOf(coll, { d: { $gt: 2 } })).toEqual([3, 4, 5]);
    expect(await idsOf(coll, { d: { $gte: 2, $lt: 3 } })).toEqual([2, 4]);
    expect(await idsOf(coll, { d: { $lte: Decimal128.fromString('2.5') } })).toEqual([1, 2, 4, 6]);
    expect(await coll.countDocuments({ d: { $gt: 2 } })).toBe(3);
  });

  it('equality is exact: 2 equals Decimal128 2.00, the double 0.1 is not Decimal128 0.1', async () => {
    expect(await idsOf(coll, { d: 2 })).toEqual([2]);
    expect(await idsOf(coll, { d: { $in: [3, Decimal128.fromString('4.0')] } })).toEqual([3, 5]);
    expect(await idsOf(coll, { d: 0.1 })).toEqual([]);
    expect(await idsOf(coll, { d: Decimal128.fromString('0.10') })).toEqual([6]);
    expect(await idsOf(coll, { d: new Double(1.5) })).toEqual([1]);
  });

  it('sorts decimals among the numbers, with or without an index', async () => {
    const order = [6, 1, 2, 4, 3, 5, 7];
    expect(await idsOf(coll, {})).toHaveLength(7);
    const sorted = await coll.find({}, { sort: { d: 1 } }).toArray();
    expect(sorted.map((d) => d._id)).toEqual(order);
    await coll.createIndex({ d: 1 });
    expect((await coll.find({}, { sort: { d: 1 } }).toArray()).map((d) => d._id)).toEqual(order);
    expect(await idsOf(coll, { d: { $gt: 2 } })).toEqual([3, 4, 5]);
    expect(await idsOf(coll, { d: 2 })).toEqual([2]);
  });

  it('a unique index holds 2 and Decimal128 2.0 as the same key, as MongoDB does', async () => {
    const u = client.db('eq').collection('decimal_unique');
    await u.createIndex({ k: 1 }, { unique: true });
    await u.insertOne({ k: 2 });
    await expect(u.insertOne({ k: Decimal128.fromString('2.0') })).rejects.toMatchObject({
      code: 11000,
    });
  });
});

describe('BinData subtypes (issue 47, item 6)', () => {
  // Subtypes 0 and 5 (MD5) decode to the same Binary class; 4 would decode to UUID.
  const bytes = Buffer.from('0123456789abcdef');
  it('$set of the same bytes with another subtype modifies the document', async () => {
    const coll = client.db('eq').collection('binary');
    await coll.insertOne({
      _id: 1 as never,
      b: new Binary(bytes, 0),
      nested: { b: new Binary(bytes, 0) },
    });
    const r = await coll.updateOne(
      { _id: 1 as never },
      { $set: { b: new Binary(bytes, 5), nested: { b: new Binary(bytes, 5) } } },
    );
    expect(r.modifiedCount).toBe(1);
    const doc = await coll.findOne({ _id: 1 as never });
    expect((doc!.b as Binary).sub_type).toBe(5);
    expect((doc!.nested.b as Binary).sub_type).toBe(5);
    const same = await coll.updateOne({ _id: 1 as never }, { $set: { b: new Binary(bytes, 5) } });
    expect(same.modifiedCount).toBe(0);
  });

  it('equality tells subtypes apart', async () => {
    const coll = client.db('eq').collection('binary_eq');
    await coll.insertMany([
      { _id: 1 as never, b: new Binary(bytes, 0) },
      { _id: 2 as never, b: new Binary(bytes, 5) },
    ]);
    expect(await idsOf(coll, { b: new Binary(bytes, 5) })).toEqual([2]);
    expect(await idsOf(coll, { b: { $in: [new Binary(bytes, 0)] } })).toEqual([1]);
  });
});
