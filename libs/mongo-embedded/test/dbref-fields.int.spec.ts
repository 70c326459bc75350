import { DBRef, MongoClient, ObjectId, type Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Issue 47, items 5 and 11: a DBRef's fields are queried as fields of an embedded document.
let server: EmbeddedMongo;
let client: MongoClient;
let coll: Collection;
const alice = new ObjectId();
const bob = new ObjectId();

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  coll = client.db('refs').collection('groups');
  await coll.insertMany([
    { _id: 1 as never, members: [new DBRef('users', alice), new DBRef('users', bob)] },
    {
      _id: 2 as never,
      members: [new DBRef('admins', alice, 'other')],
      owner: new DBRef('users', bob),
    },
    { _id: 3 as never, members: [] },
  ]);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const ids = async (filter: object) =>
  (await coll.find(filter, { sort: { _id: 1 } }).toArray()).map((d) => d._id as unknown);

describe('DBRef fields in filters (issue 47, items 5 and 11)', () => {
  it("'members.$id' matches the DBRefs whose $id it names", async () => {
    expect(await ids({ 'members.$id': alice })).toEqual([1, 2]);
    expect(await ids({ 'members.$id': bob })).toEqual([1]);
    expect(await ids({ 'owner.$id': bob })).toEqual([2]);
    expect(await ids({ 'members.$ref': 'admins', 'members.$db': 'other' })).toEqual([2]);
    expect(await coll.countDocuments({ 'members.$id': alice })).toBe(2);
  });

  it('$elemMatch on $ref and $id', async () => {
    expect(await ids({ members: { $elemMatch: { $ref: 'users', $id: alice } } })).toEqual([1]);
    expect(await ids({ members: { $elemMatch: { $id: { $in: [bob] } } } })).toEqual([1]);
  });

  it('documents come back with their DBRefs untouched', async () => {
    const [doc] = await coll.find({ 'owner.$id': bob }).toArray();
    expect(doc!.owner).toBeInstanceOf(DBRef);
    expect((doc!.owner as DBRef).oid).toEqual(bob);
  });
});
