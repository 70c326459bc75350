import { MongoClient } from 'mongodb';
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

const db = () => client.db('diagnostics');

describe('profile: the profiler is off, as reported', () => {
  it('reads level 0 and accepts setting 0 (off), as MongoDB answers', async () => {
    expect(await db().command({ profile: -1 })).toEqual({
      was: 0,
      slowms: 100,
      sampleRate: 1,
      ok: 1,
    });
    expect(await db().profilingLevel()).toBe('off');
    expect(await db().setProfilingLevel('off')).toBe('off');
  });

  it('refuses levels that would record operations (238) and a bad level (2)', async () => {
    await expect(db().setProfilingLevel('all')).rejects.toMatchObject({ code: 238 });
    await expect(db().command({ profile: 7 })).rejects.toMatchObject({ code: 2 });
    await expect(db().command({ profile: 0, slowms: 50 })).rejects.toMatchObject({ code: 238 });
  });
});

describe('validate: each index against the documents', () => {
  it('reports the records, the keys per index and valid: true', async () => {
    const c = db().collection<{ _id: number; a?: number; tags?: string[] }>('checked');
    await c.insertMany([{ _id: 1, a: 1, tags: ['x', 'y'] }, { _id: 2, a: 2 }, { _id: 3 }]);
    await c.createIndex({ a: 1 });
    await c.createIndex({ tags: 1 });
    await c.createIndex({ a: 1 }, { name: 'a_sparse', sparse: true });
    await c.updateOne({ _id: 2 }, { $set: { a: 5, tags: ['z'] } });
    await c.deleteOne({ _id: 3 });
    const res = await db().command({ validate: 'checked' });
    expect(res).toMatchObject({
      ns: 'diagnostics.checked',
      nrecords: 2,
      nIndexes: 4,
      keysPerIndex: { _id_: 2, a_1: 2, tags_1: 3, a_sparse: 2 },
      valid: true,
      errors: [],
    });
  });

  it('a missing collection is 26 NamespaceNotFound', async () => {
    await expect(db().command({ validate: 'missing' })).rejects.toMatchObject({ code: 26 });
  });
});
