import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

// mongoose's gh-14897 and gh-15255 shapes: a binary tree of subdocuments 10 levels deep (2,047
// documents in one), saved, then changed deep down and saved again.
describe('deep documents (mongoose gh-14897, gh-15255)', () => {
  it('saves a 10-level tree of subdocuments and a change at its deepest level', async () => {
    const levels = 10;
    let schema = new mongoose.Schema({ test: { type: String, required: true } });
    let doc: Record<string, unknown> = { test: 'leaf' };
    for (let i = 0; i < levels; ++i) {
      schema = new mongoose.Schema({ level: Number, subdocs: [schema] });
      doc = { level: levels - i, subdocs: [{ ...doc }, { ...doc }] };
    }
    const Tree = h.conn.model('DeepTree', schema);
    const saved = await Tree.create(doc);
    let cur = saved as unknown as { subdocs: unknown[] };
    for (let i = 0; i < levels - 1; ++i) cur = cur.subdocs[0] as { subdocs: unknown[] };
    cur.subdocs[0] = { test: 'updated' };
    await saved.save();

    const raw = (await Tree.collection.findOne({ _id: saved._id })) as Record<string, unknown>;
    let node = raw as { subdocs: Record<string, unknown>[] };
    for (let i = 0; i < levels; ++i)
      node = node.subdocs[0] as { subdocs: Record<string, unknown>[] };
    expect(node).toMatchObject({ test: 'updated' });
    const count = (n: unknown): number =>
      1 +
      (((n as { subdocs?: unknown[] }).subdocs ?? []) as unknown[]).reduce<number>(
        (a, c) => a + count(c),
        0,
      );
    expect(count(raw)).toBe(2 ** (levels + 1) - 1);
  });

  it('answers a version conflict on a deep recursive document ($inc __v behind its back)', async () => {
    const Recursive = new mongoose.Schema({ name: String });
    Recursive.add({ nested: [Recursive] });
    const Model = h.conn.model('DeepRecursive', Recursive);
    const make = (depth: number, at = 0): Record<string, unknown> => ({
      name: `depth ${at}`,
      nested: depth > 0 ? [make(depth - 1, at + 1), make(depth - 1, at + 1)] : [],
    });
    const created = await Model.create(make(10));
    const d = (await Model.findById(created._id))!;
    d.increment();
    d.set('name', 'changed');
    await Model.collection.updateOne({ _id: created._id }, { $inc: { __v: 1 } });
    await expect(d.save()).rejects.toMatchObject({ name: 'VersionError' });
    expect((await Model.findById(created._id))!.get('name')).toBe('depth 0');
  });
});
