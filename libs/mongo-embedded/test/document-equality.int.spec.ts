import { MongoClient, type Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// MongoDB compares an embedded document as BSON: same fields, same values, same order.
let server: EmbeddedMongo;
let client: MongoClient;
let coll: Collection<{ _id: number } & Record<string, unknown>>;
beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  coll = client.db('doc_equality').collection('inventory');
  await coll.insertMany([
    { _id: 1, size: { h: 14, w: 21, uom: 'cm' }, instock: [{ warehouse: 'A', qty: 5 }] },
    { _id: 2, size: { h: 8.5, w: 11, uom: 'in' }, instock: [{ warehouse: 'C', qty: 5 }] },
  ]);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const ids = async (filter: Record<string, unknown>) =>
  (await coll.find(filter).toArray()).map((d) => d._id);

describe('equality on embedded documents', () => {
  it('matches the same fields in the same order', async () => {
    expect(await ids({ size: { h: 14, w: 21, uom: 'cm' } })).toEqual([1]);
    expect(await ids({ instock: { warehouse: 'A', qty: 5 } })).toEqual([1]);
    expect(await ids({ size: { $in: [{ h: 8.5, w: 11, uom: 'in' }] } })).toEqual([2]);
  });

  it('does not match the same fields in another order', async () => {
    expect(await ids({ size: { w: 21, h: 14, uom: 'cm' } })).toEqual([]);
    expect(await ids({ instock: { qty: 5, warehouse: 'A' } })).toEqual([]);
    expect(await coll.countDocuments({ size: { $eq: { uom: 'cm', h: 14, w: 21 } } })).toBe(0);
    expect(await ids({ size: { $ne: { w: 21, h: 14, uom: 'cm' } } })).toEqual([1, 2]);
  });

  it('equates numbers of different types inside, as BSON comparison does', async () => {
    expect(await ids({ size: { h: 14.0, w: 21, uom: 'cm' } })).toEqual([1]);
  });
});
