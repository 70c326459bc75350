import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@inventory/eventually';
import { MongoClient, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

let server: EmbeddedMongo;
let client: MongoClient;
let dataDir: string;
const start = async () => {
  server = await startEmbeddedMongo({ dataDir, ttlIntervalMs: 50 });
  client = await new MongoClient(server.url).connect();
};
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mongo-embedded-ttl-'));
  await start();
});
afterAll(async () => {
  await client.close();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const db = () => client.db('ttl');
const sessions = () => db().collection<{ _id: number; at: Date }>('sessions');
const indexNamed = async (name: string) =>
  (await sessions().listIndexes().toArray()).find((index) => index.name === name) as Document;
const HOUR = 3_600_000;

/** `collMod` of `expireAfterSeconds`, as MongoDB 5.1+ answers it. */
describe('collMod index.expireAfterSeconds', () => {
  it('changes a TTL index’s expiry, answers the old and new values, and expires by the new one', async () => {
    await sessions().createIndex({ at: 1 }, { expireAfterSeconds: 24 * 3600 });
    await sessions().insertMany([
      { _id: 1, at: new Date(Date.now() - 2 * HOUR) },
      { _id: 2, at: new Date(Date.now() + HOUR) },
    ]);
    expect(
      await db().command({
        collMod: 'sessions',
        index: { keyPattern: { at: 1 }, expireAfterSeconds: 3600 },
      }),
    ).toEqual({ expireAfterSeconds_old: 86_400, expireAfterSeconds_new: 3600, ok: 1 });
    expect(await indexNamed('at_1')).toMatchObject({ expireAfterSeconds: 3600 });
    await eventually(
      async () => expect((await sessions().find().toArray()).map((d) => d._id)).toEqual([2]),
      'the two-hour-old session expired',
    );
  });

  it('keeps the new value across a restart (journaled)', async () => {
    await client.close();
    await server.stop();
    await start();
    expect(await indexNamed('at_1')).toMatchObject({ expireAfterSeconds: 3600 });
  });

  it('makes a single-field index TTL: its existing entries expire', async () => {
    const events = db().collection<{ _id: number; seen: Date }>('events');
    await events.createIndex({ seen: 1 }, { name: 'seen' });
    await events.insertMany([
      { _id: 1, seen: new Date(Date.now() - 2 * HOUR) },
      { _id: 2, seen: new Date() },
    ]);
    expect(
      await db().command({ collMod: 'events', index: { name: 'seen', expireAfterSeconds: 60 } }),
    ).toEqual({ expireAfterSeconds_new: 60, ok: 1 });
    await eventually(
      async () => expect((await events.find().toArray()).map((d) => d._id)).toEqual([2]),
      'the old event expired',
    );
    // Both options at once, each answered.
    expect(
      await db().command({
        collMod: 'events',
        index: { name: 'seen', expireAfterSeconds: 120, hidden: true },
      }),
    ).toEqual({
      expireAfterSeconds_old: 60,
      expireAfterSeconds_new: 120,
      hidden_old: false,
      hidden_new: true,
      ok: 1,
    });
  });

  it('refuses what MongoDB refuses, changing nothing', async () => {
    const items = db().collection('items');
    await items.createIndex({ a: 1, b: 1 });
    await items.createIndex({ c: 1 });
    const collMod = (index: Document) => db().command({ collMod: 'items', index });
    await expect(collMod({ name: 'a_1_b_1', expireAfterSeconds: 5 })).rejects.toMatchObject({
      code: 72,
    });
    await expect(collMod({ name: '_id_', expireAfterSeconds: 5 })).rejects.toMatchObject({
      code: 72,
    });
    await expect(collMod({ name: 'c_1', expireAfterSeconds: -1 })).rejects.toMatchObject({
      code: 72,
    });
    await expect(collMod({ name: 'c_1', expireAfterSeconds: 2_147_483_648 })).rejects.toMatchObject(
      { code: 72 },
    );
    await expect(collMod({ name: 'c_1', expireAfterSeconds: '5' })).rejects.toMatchObject({
      code: 14,
    });
    await expect(collMod({ name: 'c_1' })).rejects.toMatchObject({ code: 72 });
    const listed = await items.listIndexes().toArray();
    expect(listed.some((index) => 'expireAfterSeconds' in index)).toBe(false);
  });
});
