import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Collection } from 'mongodb';
import mongoose from 'mongoose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';
import { field, ownAt, prototypeShapes } from './prototype-guard.js';

// The four attacks of the resilience issue: each used to succeed and poison Object.prototype of
// the server process. MongoDB stores every one of them as ordinary fields.
let server: EmbeddedMongo;
let client: MongoClient;
let coll: Collection;
const shapes = prototypeShapes();
let n = 0;

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
});
afterAll(async () => {
  await client.close();
  await server.stop();
});
afterEach(async () => {
  expect(prototypeShapes()).toBe(shapes);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).x).toBeUndefined();
  // What a poisoned prototype broke: arithmetic and filters on fields that do not exist.
  await coll.insertOne({ _id: 'probe' as never, k: 1 });
  await coll.updateOne({ _id: 'probe' as never }, { $inc: { k: 1 }, $mul: { m: 2 } });
  expect(await coll.findOne({ _id: 'probe' as never })).toEqual({ _id: 'probe', k: 2, m: 0 });
  expect(await coll.countDocuments({ polluted: { $exists: true } })).toBe(0);
  expect(await coll.countDocuments({ x: { $exists: true } })).toBe(0);
});

const next = () => {
  coll = client.db('proto').collection(`c${n++}`);
  return coll;
};
const all = () => coll.find({}, { sort: { _id: 1 } }).toArray();

describe('prototype pollution through client paths (resilience issue)', () => {
  it('$rename to "__proto__.polluted" stores a field named __proto__', async () => {
    const c = next();
    await c.insertOne({ _id: 1 as never, src: 'v' });
    const r = await c.updateOne({ _id: 1 as never }, { $rename: { src: '__proto__.polluted' } });
    expect(r.modifiedCount).toBe(1);
    const [doc] = await all();
    expect(Object.keys(doc!)).toEqual(['_id', '__proto__']);
    expect(ownAt(doc, '__proto__.polluted')).toBe('v');
  });

  it('$set of "__proto__.x" stores a field named __proto__', async () => {
    const c = next();
    await c.insertOne({ _id: 1 as never });
    await c.updateOne({ _id: 1 as never }, { $set: { '__proto__.x': 1 } });
    expect(ownAt((await all())[0], '__proto__.x')).toBe(1);
    expect(await c.countDocuments({ '__proto__.x': 1 })).toBe(1);
  });

  it('an upsert whose filter has "__proto__.x" seeds a field named __proto__', async () => {
    const c = next();
    const r = await c.updateOne(
      { _id: 1 as never, '__proto__.x': 2 },
      { $set: { b: 1 } },
      { upsert: true },
    );
    expect(r.upsertedCount).toBe(1);
    const [doc] = await all();
    expect(ownAt(doc, '__proto__.x')).toBe(2);
    expect(doc!.b).toBe(1);
  });

  it('$setOnInsert of "__proto__.x" stores a field named __proto__', async () => {
    const c = next();
    await c.updateOne(
      { _id: 1 as never },
      { $setOnInsert: { '__proto__.x': 3 } },
      { upsert: true },
    );
    expect(ownAt((await all())[0], '__proto__.x')).toBe(3);
  });

  it('"constructor.prototype" is a path of fields, not Object.prototype', async () => {
    const c = next();
    await c.insertOne({ _id: 1 as never });
    await c.updateOne({ _id: 1 as never }, { $set: { 'constructor.prototype.x': 4 } });
    expect(ownAt((await all())[0], 'constructor.prototype.x')).toBe(4);
    // Without such a field nothing matches (mingo alone read Object's name off every document).
    const other = next();
    await other.insertOne({ _id: 2 as never });
    expect(await other.countDocuments({ 'constructor.name': 'Object' })).toBe(0);
    expect(await other.countDocuments(field('__proto__', { $exists: true }))).toBe(0);
  });

  it('a field named __proto__ is stored by insert, $rename and $setField, as MongoDB does', async () => {
    const c = next();
    await c.insertOne({ _id: 1 as never, ...field('__proto__', { z: 1 }) });
    expect(ownAt((await all())[0], '__proto__.z')).toBe(1);
    await c.updateOne(
      { _id: 1 as never },
      { $rename: field('__proto__', 'moved') as Record<string, string> },
    );
    expect(await all()).toEqual([{ _id: 1, moved: { z: 1 } }]);
    await c.updateOne({ _id: 1 as never }, { $rename: { moved: '__proto__' } });
    expect(ownAt((await all())[0], '__proto__.z')).toBe(1);
    await c.updateOne({ _id: 1 as never }, [
      { $replaceWith: { $setField: { field: 'constructor', input: '$$ROOT', value: 5 } } },
    ]);
    const [doc] = await all();
    expect(Object.keys(doc!)).toEqual(['_id', '__proto__', 'constructor']);
    expect(ownAt(doc, 'constructor')).toBe(5);
  });

  it('aggregation stages store and read these names as fields', async () => {
    const c = next();
    await c.insertOne({ _id: 1 as never, ...field('__proto__', { x: 6 }) });
    const out = await c
      .aggregate([
        { $set: { 'q.__proto__.z': 1, v: '$__proto__.x', w: '$constructor' } },
        { $unset: '__proto__.toString' },
        { $group: { _id: '$v', ...field('__proto__', { $sum: 1 }) } },
      ])
      .toArray();
    expect(out).toHaveLength(1);
    expect(out[0]!._id).toBe(6);
    expect(ownAt(out[0], '__proto__')).toBe(1);
    const [projected] = await c
      .aggregate([{ $project: { k: { $objectToArray: '$$ROOT' } } }])
      .toArray();
    expect(projected!.k).toEqual([
      { k: '_id', v: 1 },
      { k: '__proto__', v: { x: 6 } },
    ]);
  });

  it('through mongoose: a document with a __proto__ path never poisons the server', async () => {
    const c = next();
    const conn = await mongoose.createConnection(`${server.url}/proto`).asPromise();
    try {
      const raw = conn.collection(c.collectionName);
      await raw.updateOne(
        { _id: 9 as never },
        { $set: { '__proto__.polluted': 'yes' } },
        { upsert: true },
      );
      expect(ownAt(await raw.findOne({ _id: 9 as never }), '__proto__.polluted')).toBe('yes');
    } finally {
      await conn.close();
    }
  });

  it('a unique index on __proto__ reports the duplicate key as a field', async () => {
    const c = next();
    await c.createIndex(field('__proto__', 1) as Record<string, 1>, { unique: true });
    await c.insertOne({ _id: 1 as never, ...field('__proto__', 'k') });
    const err = await c
      .insertOne({ _id: 2 as never, ...field('__proto__', 'k') })
      .catch((e: unknown) => e as { code: number; keyValue: unknown });
    expect(err).toMatchObject({ code: 11000 });
    expect(ownAt((err as { keyValue: unknown }).keyValue, '__proto__')).toBe('k');
    expect(await c.countDocuments(field('__proto__', 'k'))).toBe(1);
  });

  it('the journal replays these fields as fields', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-proto-'));
    try {
      const first = await startEmbeddedMongo({ dataDir, fsync: 'always' });
      const c1 = await new MongoClient(first.url).connect();
      const docs = c1.db('proto').collection('journaled');
      await docs.insertOne({ _id: 1 as never, ...field('__proto__', { a: 1 }) });
      await docs.updateOne({ _id: 1 as never }, { $set: { 'constructor.prototype.b': 2 } });
      await c1.close();
      await first.stop();

      const second = await startEmbeddedMongo({ dataDir });
      const c2 = await new MongoClient(second.url).connect();
      coll = c2.db('proto').collection('journaled');
      const doc = await coll.findOne({ _id: 1 as never });
      expect(ownAt(doc, '__proto__.a')).toBe(1);
      expect(ownAt(doc, 'constructor.prototype.b')).toBe(2);
      expect(prototypeShapes()).toBe(shapes);
      coll = next();
      await c2.close();
      await second.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
