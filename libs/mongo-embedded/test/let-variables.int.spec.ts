import { MongoClient, type Collection } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Issue 47, item 9: the `let` option binds `$$name` for the command's filter, pipeline and
// update, as MongoDB 5.0+ does on find, aggregate, update, delete and findAndModify.
let server: EmbeddedMongo;
let client: MongoClient;
let coll: Collection;

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  coll = client.db('let').collection('items');
});
afterAll(async () => {
  await client.close();
  await server.stop();
});
beforeEach(async () => {
  await coll.deleteMany({});
  await coll.insertMany([
    { _id: 1 as never, qty: 5 },
    { _id: 2 as never, qty: 15 },
    { _id: 3 as never, qty: 25 },
  ]);
});

const above = { $expr: { $gt: ['$qty', '$$min'] } };

describe('let (issue 47, item 9)', () => {
  it('find', async () => {
    const docs = await coll.find(above, { let: { min: 10 }, sort: { _id: 1 } }).toArray();
    expect(docs.map((d) => d._id)).toEqual([2, 3]);
  });

  it('aggregate, in $match and in expressions', async () => {
    const out = await coll
      .aggregate([{ $match: above }, { $project: { over: { $subtract: ['$qty', '$$min'] } } }], {
        let: { min: { $add: [10, 10] } },
      })
      .toArray();
    expect(out).toEqual([{ _id: 3, over: 5 }]);
  });

  it('update, in the filter and in a pipeline update', async () => {
    const r = await coll.updateMany(above, [{ $set: { qty: '$$min' } }], { let: { min: 10 } });
    expect(r.modifiedCount).toBe(2);
    expect(await coll.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 1, qty: 5 },
      { _id: 2, qty: 10 },
      { _id: 3, qty: 10 },
    ]);
  });

  it('delete', async () => {
    const r = await coll.deleteMany(above, { let: { min: 10 } });
    expect(r.deletedCount).toBe(2);
  });

  it('findAndModify', async () => {
    const doc = await coll.findOneAndUpdate(
      above,
      { $inc: { qty: 1 } },
      { let: { min: 20 }, returnDocument: 'after' },
    );
    expect(doc).toEqual({ _id: 3, qty: 26 });
  });

  it('an undefined variable is still an error', async () => {
    await expect(coll.find(above).toArray()).rejects.toThrow(/min/);
  });
});
