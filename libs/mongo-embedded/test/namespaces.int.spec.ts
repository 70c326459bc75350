import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Long, MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Issue 47, item 12: renameCollection and dbStats answered CommandNotFound.
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function start(dataDir?: string): Promise<{ server: EmbeddedMongo; client: MongoClient }> {
  const server = await startEmbeddedMongo(dataDir ? { dataDir, fsync: 'always' } : {});
  const client = await new MongoClient(server.url).connect();
  cleanup.push(() => server.stop());
  cleanup.push(() => client.close());
  return { server, client };
}

describe('renameCollection (issue 47, item 12)', () => {
  it('moves documents, indexes and numeric types, across databases too, and survives a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-rename-'));
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const { client } = await start(dataDir);
    const a = client.db('a');
    await a.collection('from').createIndex({ k: 1 }, { unique: true });
    await a.collection('from').insertMany([
      { _id: 1 as never, k: 'x', n: Long.fromNumber(5) },
      { _id: 2 as never, k: 'y' },
    ]);
    await a.collection('from').rename('to');
    expect(await a.listCollections({}, { nameOnly: true }).toArray()).toEqual([
      expect.objectContaining({ name: 'to' }),
    ]);
    await expect(a.collection('to').insertOne({ k: 'x' })).rejects.toMatchObject({ code: 11000 });
    await client.db('admin').command({ renameCollection: 'a.to', to: 'b.moved' });
    expect(await a.listCollections().toArray()).toEqual([]);
    const moved = client.db('b').collection('moved');
    const stored = await moved.findOne({ _id: 1 as never }, { promoteLongs: false });
    expect(stored!.n).toEqual(Long.fromNumber(5));
    expect((await moved.indexes()).map((i) => i.name)).toEqual(['_id_', 'k_1']);

    // Stop this server (its client's close, then its stop: the last two clean-ups), start again.
    for (const f of cleanup.splice(-2).reverse()) await f();
    const again = await start(dataDir);
    expect(await again.client.db('b').collection('moved').countDocuments()).toBe(2);
    expect(await again.client.db('a').listCollections().toArray()).toEqual([]);
  });

  it('answers as MongoDB when the source is missing, the target exists, or the name is the same', async () => {
    const { client } = await start();
    const admin = client.db('admin');
    await client.db('a').collection('x').insertOne({ v: 1 });
    await client.db('a').collection('y').insertOne({ v: 2 });
    await expect(admin.command({ renameCollection: 'a.none', to: 'a.z' })).rejects.toMatchObject({
      code: 26,
    });
    await expect(admin.command({ renameCollection: 'a.x', to: 'a.y' })).rejects.toMatchObject({
      code: 48,
    });
    await expect(admin.command({ renameCollection: 'a.x', to: 'a.x' })).rejects.toMatchObject({
      code: 20,
    });
    await expect(
      client.db('a').command({ renameCollection: 'a.x', to: 'a.z' }),
    ).rejects.toMatchObject({ code: 13 });
    await admin.command({ renameCollection: 'a.x', to: 'a.y', dropTarget: true });
    expect(
      await client
        .db('a')
        .collection('y')
        .find({}, { projection: { _id: 0 } })
        .toArray(),
    ).toEqual([{ v: 1 }]);
  });
});

describe('dbStats (issue 47, item 12)', () => {
  it('counts collections, documents and indexes, and sizes the documents', async () => {
    const { client } = await start();
    const db = client.db('stats');
    await db.collection('one').insertMany([{ s: 'abc' }, { s: 'def' }]);
    await db.collection('two').createIndex({ s: 1 });
    const stats = await db.stats();
    expect(stats).toMatchObject({
      db: 'stats',
      collections: 2,
      views: 0,
      objects: 2,
      indexes: 3,
      ok: 1,
    });
    // {_id: ObjectId, s: 'abc'}: 4 + (1 + 4 + 12) + (1 + 2 + 4 + 4) + 1 bytes.
    expect(stats.dataSize).toBe(2 * 33);
    expect(stats.avgObjSize).toBe(33);
    expect((await db.command({ dbStats: 1, scale: 2 })).dataSize).toBe(33);
  });
});

describe('collStats', () => {
  it('counts and sizes one collection; a missing one answers zeros, as MongoDB 7', async () => {
    const { client } = await start();
    const db = client.db('stats');
    await db.collection('one').insertMany([{ s: 'abc' }, { s: 'def' }]);
    await db.collection('one').createIndex({ s: 1 });
    const stats = await db.command({ collStats: 'one' });
    expect(stats).toMatchObject({ ns: 'stats.one', count: 2, nindexes: 2, capped: false, ok: 1 });
    expect(stats.size).toBeGreaterThan(0);
    expect(Object.keys(stats.indexSizes as object)).toEqual(['_id_', 's_1']);
    expect(await db.command({ collStats: 'none' })).toMatchObject({ count: 0, size: 0, ok: 1 });
  });
});
