import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Issue 47, item 14: what a standalone MongoDB 7.0 refuses is refused here too, with its code,
// and nothing is written.
let server: EmbeddedMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  db = client.db('refuse');
  await db.collection('items').insertMany([
    { _id: 1 as never, n: 2 },
    { _id: 2 as never, n: 1 },
  ]);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const items = () => db.collection('items');
const unchanged = async () =>
  expect(
    await items()
      .find({}, { sort: { _id: 1 } })
      .toArray(),
  ).toEqual([
    { _id: 1, n: 2 },
    { _id: 2, n: 1 },
  ]);

describe('refused as MongoDB 7.0 refuses them (issue 47, item 14)', () => {
  it('updateOne and replaceOne with sort (a MongoDB 8.0 option): 40415', async () => {
    await expect(
      items().updateOne({}, { $set: { n: 9 } }, { sort: { n: 1 } }),
    ).rejects.toMatchObject({
      code: 40415,
      message: "BSON field 'update.updates.sort' is an unknown field.",
    });
    await expect(items().replaceOne({}, { n: 9 }, { sort: { n: 1 } })).rejects.toMatchObject({
      code: 40415,
    });
    await unchanged();
  });

  it('an _id document with a $-prefixed field: 52', async () => {
    await expect(items().insertOne({ _id: { $a: 1 } as never })).rejects.toMatchObject({
      code: 52,
      message: "_id fields may not contain '$'-prefixed fields: $a is not valid for storage.",
    });
    await expect(items().insertOne({ _id: { a: { $b: 1 } } as never })).rejects.toMatchObject({
      code: 52,
    });
    await expect(
      items().replaceOne({ x: 5 }, { _id: { $a: 1 }, x: 5 } as never, { upsert: true }),
    ).rejects.toMatchObject({ code: 52 });
    await unchanged();
  });

  it('w greater than 1, or a tag set, on a standalone: 2', async () => {
    await expect(items().insertOne({ n: 3 }, { writeConcern: { w: 2 } })).rejects.toMatchObject({
      code: 2,
      message: "cannot use 'w' > 1 when a host is not replicated",
    });
    await expect(
      items().updateOne(
        { _id: 1 as never },
        { $set: { n: 3 } },
        { writeConcern: { w: 'dc' as 'majority' } },
      ),
    ).rejects.toMatchObject({ code: 2 });
    await items().insertOne({ _id: 5 as never }, { writeConcern: { w: 'majority' } });
    await items().deleteOne({ _id: 5 as never }, { writeConcern: { w: 1 } });
    await unchanged();
  });

  it('a tailable cursor on a collection that is not capped: 2', async () => {
    await expect(items().find({}, { tailable: true }).toArray()).rejects.toMatchObject({
      code: 2,
      message: expect.stringContaining('tailable cursor requested on non capped collection'),
    });
  });

  it('a collection name with a NUL byte: 73', async () => {
    await expect(db.command({ insert: 'a\0b', documents: [{ x: 1 }] })).rejects.toMatchObject({
      code: 73,
    });
    await expect(
      client.db('admin').command({ renameCollection: 'refuse.items', to: 'refuse.a\0b' }),
    ).rejects.toMatchObject({ code: 73 });
    expect(await db.listCollections({}, { nameOnly: true }).toArray()).toEqual([
      expect.objectContaining({ name: 'items' }),
    ]);
  });

  it('an unknown query operator, even on a missing collection: 2', async () => {
    const missing = db.collection('missing');
    for (const run of [
      () => missing.find({ a: { $foo: 1 } }).toArray(),
      () => missing.countDocuments({ a: { $foo: 1 } }),
      () => missing.updateOne({ a: { $foo: 1 } }, { $set: { b: 1 } }),
      () => missing.deleteMany({ a: { $foo: 1 } }),
      () =>
        items()
          .find({ a: { $foo: 1 } })
          .toArray(),
    ])
      await expect(run()).rejects.toMatchObject({ code: 2 });
  });
});
