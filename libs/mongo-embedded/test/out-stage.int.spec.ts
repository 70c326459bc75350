import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

let server: EmbeddedMongo;
let client: MongoClient;
let db: Db;
beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  db = client.db('out_stage');
  await db.collection('orders').insertMany([
    { _id: 1 as never, sku: 'a', qty: 2 },
    { _id: 2 as never, sku: 'b', qty: 5 },
    { _id: 3 as never, sku: 'a', qty: 1 },
  ]);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const totals = () =>
  db.collection('orders').aggregate([{ $group: { _id: '$sku', total: { $sum: '$qty' } } }]);

describe('$out', () => {
  it('replaces the target collection with the results and answers an empty cursor', async () => {
    await db.collection('totals').insertOne({ _id: 'old' as never });
    await db.collection('totals').createIndex({ total: 1 });
    const cursor = db
      .collection('orders')
      .aggregate([{ $group: { _id: '$sku', total: { $sum: '$qty' } } }, { $out: 'totals' }]);
    expect(await cursor.toArray()).toEqual([]);
    const out = await db.collection('totals').find().sort({ _id: 1 }).toArray();
    expect(out).toEqual([
      { _id: 'a', total: 3 },
      { _id: 'b', total: 5 },
    ]);
    const indexes = await db.collection('totals').listIndexes().toArray();
    expect(indexes.map((i) => i.name)).toEqual(['_id_', 'total_1']);
  });

  it('writes into another database with {db, coll}', async () => {
    await db
      .collection('orders')
      .aggregate([{ $match: { sku: 'b' } }, { $out: { db: 'out_other', coll: 'b_orders' } }])
      .toArray();
    expect(await client.db('out_other').collection('b_orders').countDocuments()).toBe(1);
  });

  it('changes nothing when a result breaks a unique index (11000)', async () => {
    await db.collection('uniq').insertOne({ keep: true });
    await db.collection('uniq').createIndex({ sku: 1 }, { unique: true });
    const err = await db
      .collection('orders')
      .aggregate([{ $project: { sku: 1 } }, { $out: 'uniq' }])
      .toArray()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 11000 });
    expect(
      await db
        .collection('uniq')
        .find({}, { projection: { _id: 0 } })
        .toArray(),
    ).toEqual([{ keep: true }]);
  });

  it('only as the last stage: 40601', async () => {
    await expect(
      db
        .collection('orders')
        .aggregate([{ $out: 'x' }, { $match: {} }])
        .toArray(),
    ).rejects.toMatchObject({ code: 40601 });
    expect(await totals().toArray()).toHaveLength(2);
  });
});
