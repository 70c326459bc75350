import { BSONRegExp, MongoClient, ObjectId, type Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Issue 47, items 4, 10 and 11.
let server: EmbeddedMongo;
let client: MongoClient;

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

describe('a regex query value and stored regular expressions (item 4)', () => {
  let coll: Collection;
  const ids = async (filter: object) =>
    (await coll.find(filter, { sort: { _id: 1 } }).toArray()).map((d) => d._id as unknown);
  beforeAll(async () => {
    coll = client.db('re').collection('values');
    await coll.insertMany([
      { _id: 1 as never, r: /ab/i },
      { _id: 2 as never, r: 'xABy' },
      { _id: 3 as never, r: new BSONRegExp('ab', 'i') },
      { _id: 4 as never, r: /ab/ },
      { _id: 5 as never, r: ['no', 'cab'] },
    ]);
  });

  it('matches strings by pattern and stored regexes with the same pattern and options', async () => {
    expect(await ids({ r: /ab/i })).toEqual([1, 2, 3, 5]);
    expect(await ids({ r: { $regex: 'ab', $options: 'i' } })).toEqual([1, 2, 3, 5]);
    expect(await ids({ r: /ab/ })).toEqual([4, 5]);
  });

  it('$in matches strings by a regex element, and count agrees with find', async () => {
    expect(await ids({ r: { $in: [/ab/i] } })).toEqual([1, 2, 3, 5]);
    expect(await ids({ r: { $nin: [/ab/i] } })).toEqual([4]);
    expect(await ids({ r: { $eq: /ab/i } })).toEqual([1, 3]);
    for (const filter of [{ r: /ab/i }, { r: { $in: [/ab/i, 'none'] } }, { r: { $eq: /ab/i } }])
      expect(await coll.countDocuments(filter)).toBe((await ids(filter)).length);
  });
});

describe('pipeline updates (item 10)', () => {
  it('$replaceRoot and $replaceWith keep an unchanged _id, or restore it when the new root has none', async () => {
    const coll = client.db('re').collection('pipelines');
    const id = new ObjectId();
    await coll.insertOne({ _id: id, a: 1, sub: { b: 2 } });
    await coll.updateOne({ _id: id }, [
      { $replaceRoot: { newRoot: { $mergeObjects: ['$$ROOT', { c: 3 }] } } },
    ]);
    expect(await coll.findOne({ _id: id })).toEqual({ _id: id, a: 1, sub: { b: 2 }, c: 3 });
    const r = await coll.updateOne({ _id: id }, [{ $replaceRoot: { newRoot: '$sub' } }]);
    expect(r.modifiedCount).toBe(1);
    expect(await coll.findOne({ _id: id })).toEqual({ _id: id, b: 2 });
    await expect(
      coll.updateOne({ _id: id }, [{ $replaceWith: { _id: 'other', b: 2 } }]),
    ).rejects.toMatchObject({ code: 66 });
  });
});

describe('$unset through arrays (item 11)', () => {
  it('$[] and $[identifier] paths unset in the elements', async () => {
    const coll = client.db('re').collection('unset');
    await coll.insertOne({
      _id: 1 as never,
      arr: [
        { x: 1, y: 1 },
        { x: 2, y: 2 },
      ],
    });
    await coll.updateOne({ _id: 1 as never }, { $unset: { 'arr.$[].x': '' } });
    await coll.updateOne(
      { _id: 1 as never },
      { $unset: { 'arr.$[e].y': '' } },
      { arrayFilters: [{ 'e.y': 2 }] },
    );
    expect(await coll.findOne({ _id: 1 as never })).toEqual({ _id: 1, arr: [{ y: 1 }, {}] });
  });
});
