import { MongoClient, type Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

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

const coll = (name: string): Collection<{ _id: number } & Record<string, unknown>> =>
  client.db('options').collection(name);

describe('update paths with a $-prefixed field name (mongoose sends `map.$*.x`)', () => {
  it('$unset of an absent one is a no-op beside the other operators, as MongoDB', async () => {
    const c = coll('maps');
    await c.insertOne({ _id: 1, nested: { data: {} } });
    const res = await c.updateOne(
      { _id: 1 },
      { $set: { 'nested.data.second': { n: 1 } }, $unset: { 'nested.data.$*._id': 1 } },
    );
    expect(res.modifiedCount).toBe(1);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, nested: { data: { second: { n: 1 } } } });
  });
});

describe('$set of a top-level $-prefixed field (mongoose gh-13786)', () => {
  it('is stored, as MongoDB 5+ does', async () => {
    const c = coll('dollar');
    await c.updateOne({ _id: 2 }, { $set: { $myKey: 'x' } }, { upsert: true });
    expect(await c.findOne({ _id: 2 })).toEqual({ _id: 2, $myKey: 'x' });
  });
});

describe('index options', () => {
  it('`background` is kept in the spec and listed, as MongoDB does', async () => {
    const c = coll('bg');
    await c.createIndex({ name: 1 }, { background: false });
    await c.createIndex({ other: 1 }, { background: true });
    const listed = await c.listIndexes().toArray();
    expect(listed.find((i) => i.name === 'name_1')?.background).toBe(false);
    expect(listed.find((i) => i.name === 'other_1')?.background).toBe(true);
  });
});
