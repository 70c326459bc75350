import { MongoClient } from 'mongodb';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

// What a standalone MongoDB 7 refuses, refused here with its code, so code that relies on it
// fails in tests rather than in production; features this server lacks answer NotImplemented (238).
let h: Harness;
let client: MongoClient;
const MiB = 1024 * 1024;

beforeAll(async () => {
  h = await startHarness();
  client = await new MongoClient(h.server.url).connect();
});
afterAll(async () => {
  await client.close();
  await h.close();
});

const db = () => client.db('refusals');

describe('limits', () => {
  it('refuses a document over 16 MiB on insert (2) and after an update (BSONObjectTooLarge, 10334)', async () => {
    const Blob = h.conn.model('BigBlob', new mongoose.Schema({ body: String, more: String }));
    await expect(Blob.create({ body: 'x'.repeat(16 * MiB + 100) })).rejects.toMatchObject({
      code: 2,
      message: expect.stringContaining('object to insert too large'),
    });
    const ok = await Blob.create({ body: 'x'.repeat(9 * MiB) });
    await expect(
      Blob.updateOne({ _id: ok._id }, { $set: { more: 'y'.repeat(9 * MiB) } }),
    ).rejects.toMatchObject({
      code: 10334,
      message: expect.stringContaining('larger than 16777216'),
    });
    expect((await Blob.findById(ok._id).lean())?.more).toBeUndefined();
    expect(await Blob.countDocuments()).toBe(1);
  });

  it('refuses $set through an array of subdocuments or a scalar with a dotted path (28, PathNotViable)', async () => {
    const Cart = h.conn.model(
      'ViableCart',
      new mongoose.Schema({ items: [{ name: String }], total: Number }, { strict: false }),
    );
    const cart = await Cart.create({ items: [{ name: 'a' }, { name: 'b' }], total: 3 });
    await expect(
      Cart.collection.updateOne({ _id: cart._id }, { $set: { 'items.name': 'z' } }),
    ).rejects.toMatchObject({
      code: 28,
      message: expect.stringContaining("Cannot create field 'name'"),
    });
    await expect(
      Cart.collection.updateOne({ _id: cart._id }, { $inc: { 'total.x': 1 } }),
    ).rejects.toMatchObject({ code: 28 });
    // An index into the array is a viable path.
    await Cart.updateOne({ _id: cart._id }, { $set: { 'items.1.name': 'z' } });
    expect((await Cart.findById(cart._id).lean())?.items.map((i) => i.name)).toEqual(['a', 'z']);
  });
});

describe('index conflicts', () => {
  it('answers 85 and 86 as MongoDB does and accepts an identical request', async () => {
    const coll = db().collection('idx');
    await coll.createIndex({ a: 1 }, { name: 'by_a' });
    expect(await coll.createIndex({ a: 1 }, { name: 'by_a' })).toBe('by_a');
    await expect(coll.createIndex({ b: 1 }, { name: 'by_a' })).rejects.toMatchObject({
      code: 86,
      codeName: 'IndexKeySpecsConflict',
    });
    await expect(coll.createIndex({ a: 1 }, { name: 'other' })).rejects.toMatchObject({
      code: 85,
      message: 'Index already exists with a different name: by_a',
    });
    await coll.createIndex({ t: 1 }, { name: 'ttl', expireAfterSeconds: 60 });
    await expect(
      coll.createIndex({ t: 1 }, { name: 'ttl', expireAfterSeconds: 120 }),
    ).rejects.toMatchObject({ code: 85, codeName: 'IndexOptionsConflict' });
    await expect(coll.createIndex({ a: 1 }, { name: 'by_a', unique: true })).rejects.toMatchObject({
      code: 86,
    });
    // unique is part of an index's identity: same keys, another name, another uniqueness is allowed.
    expect(await coll.createIndex({ a: 1 }, { name: 'by_a_unique', unique: true })).toBe(
      'by_a_unique',
    );
  });

  it('fails a mongoose schema whose index options changed under the same name', async () => {
    const First = h.conn.model(
      'IdxFirst',
      new mongoose.Schema({ at: Date }).index({ at: 1 }, { expireAfterSeconds: 60 }),
      'idx_shared',
    );
    await First.init();
    const Second = h.conn.model(
      'IdxSecond',
      new mongoose.Schema({ at: Date }).index({ at: 1 }, { expireAfterSeconds: 3600 }),
      'idx_shared',
    );
    await expect(Second.createIndexes()).rejects.toMatchObject({ code: 85 });
  });
});

describe('commands and stages', () => {
  it('answers an unknown aggregation stage with MongoDB message (40324) and a malformed one with 40323', async () => {
    const coll = db().collection('agg');
    await coll.insertOne({ a: 1 });
    await expect(coll.aggregate([{ $frobnicate: {} }]).toArray()).rejects.toMatchObject({
      code: 40324,
      message: "Unrecognized pipeline stage name: '$frobnicate'",
    });
    await expect(
      coll.aggregate([{ $match: {}, $limit: 1 } as never]).toArray(),
    ).rejects.toMatchObject({ code: 40323 });
    await expect(
      coll.aggregate([{ $facet: { x: [{ $nope: 1 }] } }]).toArray(),
    ).rejects.toMatchObject({ code: 40324 });
  });

  it('answers an unknown command with CommandNotFound (59) naming it', async () => {
    await expect(db().command({ frobnicate: 1 })).rejects.toMatchObject({
      code: 59,
      codeName: 'CommandNotFound',
      message: "no such command: 'frobnicate'",
    });
  });

  it('answers a transaction as a standalone MongoDB does (20)', async () => {
    const Acct = h.conn.model('TxnAcct', new mongoose.Schema({ n: Number }));
    await Acct.init();
    const failure = await h.conn
      .transaction(async (session) => {
        await Acct.create([{ n: 1 }], { session });
      })
      .catch((err: unknown) => err);
    expect(failure).toMatchObject({
      code: 20,
      message: 'Transaction numbers are only allowed on a replica set member or mongos',
    });
    expect(await Acct.countDocuments()).toBe(0);
  });
});

describe('features this server does not implement (238, NotImplemented)', () => {
  const notImplemented = (feature: string) => ({
    code: 238,
    codeName: 'NotImplemented',
    message: expect.stringContaining(feature),
  });

  it('refuses geo, text, hashed and wildcard indexes', async () => {
    const coll = db().collection('kinds');
    await expect(coll.createIndex({ body: 'text' })).rejects.toMatchObject(notImplemented('text'));
    await expect(coll.createIndex({ loc: '2dsphere' })).rejects.toMatchObject(
      notImplemented('2dsphere'),
    );
    await expect(coll.createIndex({ k: 'hashed' })).rejects.toMatchObject(notImplemented('hashed'));
    await expect(coll.createIndex({ '$**': 1 })).rejects.toMatchObject(notImplemented('wildcard'));
  });

  it('refuses $where, $text and geo queries, $merge and a nested $out', async () => {
    const Doc = h.conn.model('NiDoc', new mongoose.Schema({ n: Number }));
    await Doc.create({ n: 1 });
    await expect(Doc.find({ $where: 'this.n > 0' })).rejects.toMatchObject(
      notImplemented('$where'),
    );
    await expect(Doc.find({ $text: { $search: 'x' } })).rejects.toMatchObject(
      notImplemented('$text'),
    );
    const nested = [{ $facet: { a: [{ $out: 'copy' }] } }];
    await expect(db().collection('nidocs').aggregate(nested).toArray()).rejects.toMatchObject(
      notImplemented('$out'),
    );
    await expect(Doc.aggregate([{ $merge: { into: 'copy' } }])).rejects.toMatchObject(
      notImplemented('$merge'),
    );
    expect(await db().listCollections({ name: 'copy' }).toArray()).toEqual([]);
  });

  it('refuses profiler levels 1 and 2 and user commands by name (238), not as unknown', async () => {
    for (const cmd of [{ profile: 1 }, { profile: 2 }, { createUser: 'u', pwd: 'p', roles: [] }])
      await expect(db().command(cmd)).rejects.toMatchObject({ code: 238 });
  });

  it('refuses a partial index filter MongoDB cannot index: 67 CannotCreateIndex', async () => {
    const c = db().collection('partials');
    const partial = (partialFilterExpression: object) =>
      c.createIndex({ a: 1 }, { partialFilterExpression, name: `p${Math.random()}` });
    await expect(partial({ a: { $exists: false } })).rejects.toMatchObject({ code: 67 });
    await expect(partial({ a: { $ne: 1 } })).rejects.toMatchObject({ code: 67 });
    await expect(partial({ $nor: [{ a: 1 }] })).rejects.toMatchObject({ code: 67 });
    await expect(
      partial({ a: { $gt: 1 }, b: { $exists: true }, $or: [{ c: 'x' }, { d: { $in: [1] } }] }),
    ).resolves.toBeDefined();
  });

  it('refuses time-series collections and the collMod options it does not implement', async () => {
    await expect(
      db().createCollection('series', { timeseries: { timeField: 't' } }),
    ).rejects.toMatchObject(notImplemented('time-series'));
    await db().createCollection('modded');
    await expect(
      db().command({ collMod: 'modded', index: { name: '_id_', forceNonUnique: true } }),
    ).rejects.toMatchObject(notImplemented("collMod option 'index.forceNonUnique'"));
    await expect(db().command({ collMod: 'modded', viewOn: 'kinds' })).rejects.toMatchObject(
      notImplemented("collMod option 'viewOn'"),
    );
    expect(await db().listCollections({ name: 'series' }).toArray()).toEqual([]);
  });

  it('refuses a collation other than simple instead of ignoring it', async () => {
    const Name = h.conn.model('CollName', new mongoose.Schema({ name: String }));
    await Name.create({ name: 'Ann' });
    await expect(
      Name.find({ name: 'ann' }).collation({ locale: 'en', strength: 2 }),
    ).rejects.toMatchObject({ code: 2, message: expect.stringContaining('collation') });
    expect(await Name.find({ name: 'Ann' }).collation({ locale: 'simple' })).toHaveLength(1);
  });

  it('refuses a hint naming an index that does not exist', async () => {
    const Hinted = h.conn.model(
      'Hinted',
      new mongoose.Schema({ k: { type: String, index: true } }),
    );
    await Hinted.init();
    await Hinted.create({ k: 'a' });
    await expect(Hinted.find({ k: 'a' }).hint('nope_1')).rejects.toMatchObject({
      code: 2,
      message: expect.stringContaining('hint provided does not correspond to an existing index'),
    });
    await expect(Hinted.find({ k: 'a' }).hint({ other: 1 })).rejects.toMatchObject({ code: 2 });
    expect(await Hinted.find({ k: 'a' }).hint('k_1')).toHaveLength(1);
    expect(await Hinted.find({ k: 'a' }).hint({ k: 1 })).toHaveLength(1);
    expect(await Hinted.countDocuments({ k: 'a' }).hint({ $natural: 1 })).toBe(1);
  });
});
