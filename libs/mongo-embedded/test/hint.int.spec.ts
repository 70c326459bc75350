import { MongoClient, type Collection, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Issue 47, item 7: a hint naming an existing index forces a scan of that index, as in MongoDB:
// results in the index's order, and only the documents a sparse index holds.
let server: EmbeddedMongo;
let client: MongoClient;
let coll: Collection;

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  coll = client.db('hint').collection('items');
  await coll.createIndex({ k: -1 });
  await coll.createIndex({ s: 1 }, { sparse: true });
  await coll.insertMany([
    { _id: 1 as never, k: 2, s: 'b' },
    { _id: 2 as never, k: 3 },
    { _id: 3 as never, k: 1, s: 'a' },
    { _id: 4 as never, k: 4 },
  ]);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const ids = (docs: Document[]) => docs.map((d) => d._id as unknown);

describe('hint (issue 47, item 7)', () => {
  it('find and aggregate come back in the hinted index order', async () => {
    expect(ids(await coll.find({}, { hint: { k: -1 } }).toArray())).toEqual([4, 2, 1, 3]);
    expect(ids(await coll.find({ k: { $gt: 1 } }, { hint: 'k_-1' }).toArray())).toEqual([4, 2, 1]);
    expect(ids(await coll.aggregate([{ $match: {} }], { hint: { k: -1 } }).toArray())).toEqual([
      4, 2, 1, 3,
    ]);
    expect(ids(await coll.aggregate([{ $project: { k: 1 } }], { hint: 'k_-1' }).toArray())).toEqual(
      [4, 2, 1, 3],
    );
    // Without a hint: natural order.
    expect(ids(await coll.find({}).toArray())).toEqual([1, 2, 3, 4]);
  });

  it('a hinted sparse index counts and returns only the documents it holds', async () => {
    expect(await coll.countDocuments({}, { hint: 's_1' })).toBe(2);
    expect(await coll.countDocuments({ k: { $gt: 0 } }, { hint: { s: 1 } })).toBe(2);
    expect(ids(await coll.find({}, { hint: { s: 1 } }).toArray())).toEqual([3, 1]);
    expect(await coll.countDocuments({})).toBe(4);
    expect(await coll.countDocuments({}, { hint: { $natural: 1 } })).toBe(4);
  });

  it('a sort, skip and limit apply to the hinted scan', async () => {
    const docs = await coll
      .find({}, { hint: { s: 1 }, sort: { k: -1 }, skip: 1, limit: 1 })
      .toArray();
    expect(ids(docs)).toEqual([3]);
  });
});
