import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function dupError(p: Promise<unknown>): Promise<Record<string, unknown>> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e as Record<string, unknown>,
  );
  expect(err, 'expected a duplicate key error').toBeDefined();
  expect(err!.code).toBe(11000);
  expect(String(err!.message)).toMatch(/^E11000 duplicate key error collection: /);
  return err!;
}

describe('unique indexes', () => {
  it('single-field unique on insert, update and upsert', async () => {
    const User = h.conn.model(
      'UUser',
      new mongoose.Schema({ email: { type: String, unique: true }, name: String }),
    );
    await User.init();
    await User.create({ email: 'a@x.io', name: 'A' });
    const b = await User.create({ email: 'b@x.io', name: 'B' });
    const onInsert = await dupError(User.create({ email: 'a@x.io' }));
    expect(onInsert.keyPattern).toEqual({ email: 1 });
    expect(onInsert.keyValue).toEqual({ email: 'a@x.io' });
    expect(String(onInsert.message)).toContain('index: email_1 dup key: { email: "a@x.io" }');
    await dupError(User.updateOne({ _id: b._id }, { $set: { email: 'a@x.io' } }));
    await dupError(
      User.findOneAndUpdate({ name: 'nobody' }, { $set: { email: 'b@x.io' } }, { upsert: true }),
    );
    await dupError(
      User.updateOne({ name: 'ghost' }, { $set: { email: 'a@x.io' } }, { upsert: true }),
    );
    expect(await User.countDocuments()).toBe(2);
    expect((await User.findById(b._id).lean())?.email).toBe('b@x.io');
  });

  it('compound unique allows partial overlap only', async () => {
    const schema = new mongoose.Schema({ tenant: String, sku: String });
    schema.index({ tenant: 1, sku: 1 }, { unique: true });
    const P = h.conn.model('UProduct', schema);
    await P.init();
    await P.create([
      { tenant: 't1', sku: 's1' },
      { tenant: 't1', sku: 's2' },
      { tenant: 't2', sku: 's1' },
    ]);
    const err = await dupError(P.create({ tenant: 't1', sku: 's1' }));
    expect(err.keyPattern).toEqual({ tenant: 1, sku: 1 });
    expect(err.keyValue).toEqual({ tenant: 't1', sku: 's1' });
    await dupError(P.updateOne({ tenant: 't2' }, { $set: { tenant: 't1' } }));
  });

  it('compound unique keys are not confused by separators inside strings', async () => {
    const schema = new mongoose.Schema({ a: String, b: String });
    schema.index({ a: 1, b: 1 }, { unique: true });
    const C = h.conn.model('USeparator', schema);
    await C.init();
    await C.create({ a: 'x|sy', b: 'z' });
    await C.create({ a: 'x', b: 'y|sz' });
    await C.create([
      { a: 'x2:sy', b: 'z' },
      { a: 'x', b: 'y2:sz' },
    ]);
    const err = await dupError(C.create({ a: 'x', b: 'y|sz' }));
    expect(err.keyValue).toEqual({ a: 'x', b: 'y|sz' });
    expect(await C.countDocuments()).toBe(4);
    expect(await C.countDocuments({ a: 'x' })).toBe(2);
  });

  it('sparse unique ignores documents missing the field', async () => {
    const schema = new mongoose.Schema({ code: String, n: Number });
    schema.index({ code: 1 }, { unique: true, sparse: true });
    const S = h.conn.model('USparse', schema);
    await S.init();
    await S.create([{ n: 1 }, { n: 2 }, { code: 'c1' }]);
    await dupError(S.create({ code: 'c1' }));
    await dupError(S.updateOne({ n: 1 }, { $set: { code: 'c1' } }));
    expect(await S.countDocuments()).toBe(3);
  });

  it('partial unique only constrains matching documents', async () => {
    const schema = new mongoose.Schema({ email: String, active: Boolean });
    schema.index({ email: 1 }, { unique: true, partialFilterExpression: { active: true } });
    const M = h.conn.model('UPartial', schema);
    await M.init();
    await M.create([
      { email: 'p@x', active: false },
      { email: 'p@x', active: false },
      { email: 'p@x', active: true },
    ]);
    const err = await dupError(M.create({ email: 'p@x', active: true }));
    expect(err.keyValue).toEqual({ email: 'p@x' });
    await dupError(M.updateOne({ active: false }, { $set: { active: true } }));
    await dupError(
      M.updateOne({ email: 'new' }, { $set: { email: 'p@x', active: true } }, { upsert: true }),
    );
    expect(await M.countDocuments({ active: true })).toBe(1);
  });

  it('_id is always unique and bulk inserts report writeErrors', async () => {
    const coll = h.conn.db!.collection('uids');
    await coll.insertOne({ _id: 'x' as never });
    const err = (await coll
      .insertMany([{ _id: 'y' }, { _id: 'x' }, { _id: 'z' }] as never[])
      .catch((e: unknown) => e)) as Record<string, unknown>;
    expect(err.code).toBe(11000);
    expect((err.writeErrors as { index: number }[])[0]?.index).toBe(1);
    expect(await coll.countDocuments()).toBe(2);
  });

  it('refuses to build a unique index over existing duplicates', async () => {
    const coll = h.conn.db!.collection('prebuilt');
    await coll.insertMany([{ k: 1 }, { k: 1 }]);
    await expect(coll.createIndex({ k: 1 }, { unique: true })).rejects.toMatchObject({
      code: 11000,
    });
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });
});
