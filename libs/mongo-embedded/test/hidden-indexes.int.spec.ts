import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

let server: EmbeddedMongo;
let client: MongoClient;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mongo-embedded-hidden-'));
  server = await startEmbeddedMongo({ dataDir });
  client = await new MongoClient(server.url).connect();
});
afterAll(async () => {
  await client.close();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});

type Doc = { _id: number; sku: string };
const db = () => client.db('hidden');
const coll = () => db().collection<Doc>('items');
const stage = async (filter: Document) => {
  const plan = (await coll().find(filter).explain()) as Document;
  const winning = plan.queryPlanner.winningPlan as Document;
  return (winning.inputStage?.stage ?? winning.stage) as string;
};
const listed = async () =>
  (await coll().listIndexes().toArray()).find((i) => i.name === 'sku_1') as Document;

describe('hidden indexes, as MongoDB 4.4+', () => {
  it('collMod hides an index: not chosen, not hintable, still unique, listed hidden', async () => {
    await coll().insertMany([
      { _id: 1, sku: 'a' },
      { _id: 2, sku: 'b' },
    ]);
    await coll().createIndex({ sku: 1 }, { unique: true });
    expect(await stage({ sku: 'a' })).toBe('IXSCAN');
    expect(
      await db().command({ collMod: 'items', index: { keyPattern: { sku: 1 }, hidden: true } }),
    ).toEqual({ hidden_old: false, hidden_new: true, ok: 1 });
    expect(await listed()).toMatchObject({ hidden: true });
    expect(await stage({ sku: 'a' })).toBe('COLLSCAN');
    await expect(coll().find({ sku: 'a' }).hint('sku_1').toArray()).rejects.toMatchObject({
      code: 2,
    });
    await expect(coll().insertOne({ _id: 3, sku: 'a' })).rejects.toMatchObject({ code: 11000 });
    await coll().insertOne({ _id: 4, sku: 'd' }); // kept up to date while hidden
  });

  it('survives a restart, and showing it again makes it usable with its entries', async () => {
    await client.close();
    await server.stop();
    server = await startEmbeddedMongo({ dataDir });
    client = await new MongoClient(server.url).connect();
    expect(await listed()).toMatchObject({ hidden: true });
    expect(
      await db().command({ collMod: 'items', index: { name: 'sku_1', hidden: false } }),
    ).toEqual({ hidden_old: true, hidden_new: false, ok: 1 });
    expect(await listed()).not.toHaveProperty('hidden');
    expect(await stage({ sku: 'd' })).toBe('IXSCAN');
    expect(await coll().find({ sku: 'd' }).hint('sku_1').toArray()).toEqual([{ _id: 4, sku: 'd' }]);
  });

  it('createIndexes with hidden: true builds an index the planner does not use', async () => {
    await coll().createIndex({ _id: 1, sku: 1 }, { hidden: true, name: 'both' });
    const plan = (await coll().find({ _id: 1, sku: 'a' }).explain()) as Document;
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).not.toContain('"both"');
  });

  it('answers MongoDB errors for the _id index, a missing index and a bad request', async () => {
    const mod = (index: Document) => db().command({ collMod: 'items', index });
    await expect(mod({ name: '_id_', hidden: true })).rejects.toMatchObject({ code: 2 });
    await expect(mod({ name: 'nope', hidden: true })).rejects.toMatchObject({ code: 27 });
    await expect(mod({ hidden: true })).rejects.toMatchObject({ code: 2 });
    await expect(mod({ name: 'sku_1', hidden: 'yes' })).rejects.toMatchObject({ code: 2 });
    expect(await listed()).not.toHaveProperty('hidden');
  });
});
