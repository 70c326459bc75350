import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Issue 47: collMod converts an index to unique in MongoDB 6.0+'s two steps, `prepareUnique: true`
// (new duplicates refused, those already there kept) then `unique: true` (refused with 359
// CannotConvertIndexToUnique while duplicates remain). Journaled.
let server: EmbeddedMongo;
let client: MongoClient;
let dataDir: string;
const start = async () => {
  server = await startEmbeddedMongo({ dataDir });
  client = await new MongoClient(server.url).connect();
};
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mongo-embedded-unique-'));
  await start();
});
afterAll(async () => {
  await client.close();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});

type Item = { _id: number; sku: string; n?: number };
const db = () => client.db('unique_conversion');
const items = () => db().collection<Item>('items');
const collMod = (index: Document) => db().command({ collMod: 'items', index });
const skuIndex = async () =>
  (await items().listIndexes().toArray()).find((i) => i.name === 'sku_1') as Document;

describe('collMod prepareUnique / unique', () => {
  it('refuses unique: true before prepareUnique (72), and unique: false (2)', async () => {
    await items().createIndex({ sku: 1 });
    await items().insertMany([
      { _id: 1, sku: 'a' },
      { _id: 2, sku: 'a' },
      { _id: 3, sku: 'b' },
    ]);
    await expect(collMod({ name: 'sku_1', unique: true })).rejects.toMatchObject({
      code: 72,
      codeName: 'InvalidOptions',
      message: "Cannot make index unique with 'prepareUnique=false'. Run collMod to set it first.",
    });
    await expect(collMod({ name: 'sku_1', unique: false })).rejects.toMatchObject({
      code: 2,
      message: 'Cannot make index non-unique',
    });
    await expect(
      collMod({ name: 'sku_1', prepareUnique: true, hidden: true }),
    ).rejects.toMatchObject({
      code: 72,
      message: 'prepareUnique cannot be combined with any other modification.',
    });
    expect(await skuIndex()).not.toHaveProperty('prepareUnique');
    expect(await skuIndex()).not.toHaveProperty('hidden');
  });

  it('prepareUnique: true answers old and new, and refuses new duplicates only', async () => {
    expect(await collMod({ keyPattern: { sku: 1 }, prepareUnique: true })).toEqual({
      prepareUnique_old: false,
      prepareUnique_new: true,
      ok: 1,
    });
    expect(await collMod({ name: 'sku_1', prepareUnique: true })).toEqual({ ok: 1 });
    expect(await skuIndex()).toMatchObject({ key: { sku: 1 }, prepareUnique: true });
    await expect(items().insertOne({ _id: 4, sku: 'b' })).rejects.toMatchObject({
      code: 11000,
      keyValue: { sku: 'b' },
    });
    await expect(items().updateOne({ _id: 3 }, { $set: { sku: 'a' } })).rejects.toMatchObject({
      code: 11000,
    });
    // The duplicates already there stay, and a write that keeps their key is not refused.
    await items().updateOne({ _id: 2 }, { $set: { n: 1 } });
    await items().insertOne({ _id: 5, sku: 'c' });
    expect(await items().find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, sku: 'a' },
      { _id: 2, sku: 'a', n: 1 },
      { _id: 3, sku: 'b' },
      { _id: 5, sku: 'c' },
    ]);
  });

  it('unique: true is 359 CannotConvertIndexToUnique listing the duplicates, and changes nothing', async () => {
    await expect(collMod({ name: 'sku_1', unique: true })).rejects.toMatchObject({
      code: 359,
      codeName: 'CannotConvertIndexToUnique',
      message:
        'Cannot convert the index to unique. Please resolve conflicting documents before running collMod again.',
      violations: [{ ids: [1, 2] }],
    });
    expect(await skuIndex()).toMatchObject({ prepareUnique: true });
    expect(await skuIndex()).not.toHaveProperty('unique');
  });

  it('unique: true converts once the duplicates are gone: unique_new, prepareUnique cleared', async () => {
    await items().deleteOne({ _id: 2 });
    expect(await collMod({ name: 'sku_1', unique: true })).toEqual({ unique_new: true, ok: 1 });
    const index = await skuIndex();
    expect(index).toMatchObject({ key: { sku: 1 }, unique: true });
    expect(index).not.toHaveProperty('prepareUnique');
    // Already unique: both options are no-ops.
    expect(await collMod({ name: 'sku_1', unique: true })).toEqual({ ok: 1 });
    expect(await collMod({ name: 'sku_1', prepareUnique: true })).toEqual({ ok: 1 });
    expect((await items().listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'sku_1']);
  });

  it('keeps the unique index across a restart (journaled) and enforces it', async () => {
    await client.close();
    await server.stop();
    await start();
    expect(await skuIndex()).toMatchObject({ unique: true });
    await expect(items().insertOne({ _id: 6, sku: 'a' })).rejects.toMatchObject({
      code: 11000,
      keyValue: { sku: 'a' },
    });
  });

  it('an index created with prepareUnique refuses new duplicates', async () => {
    const tags = db().collection<Item>('tags');
    await tags.insertMany([
      { _id: 1, sku: 'x' },
      { _id: 2, sku: 'x' },
    ]);
    // The driver's createIndex drops options it does not know: the command itself.
    await db().command({
      createIndexes: 'tags',
      indexes: [{ key: { sku: 1 }, name: 'sku_1', prepareUnique: true }],
    });
    await expect(tags.insertOne({ _id: 3, sku: 'x' })).rejects.toMatchObject({ code: 11000 });
    await tags.deleteOne({ _id: 1 });
    await expect(tags.insertOne({ _id: 3, sku: 'x' })).rejects.toMatchObject({ code: 11000 });
  });
});
