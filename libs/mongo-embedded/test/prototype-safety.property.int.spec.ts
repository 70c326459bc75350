import fc from 'fast-check';
import { MongoClient, type Collection, type Document } from 'mongodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';
import { nested, ownAt, prototypeShapes } from './prototype-guard.js';

// Paths built from the names JavaScript resolves through prototypes, mixed with ordinary ones,
// through every kind of operation that walks a client's path or copies a client's keys. After
// each: no prototype changed, and the value is where MongoDB would store it, as a field.
let server: EmbeddedMongo;
let client: MongoClient;
let coll: Collection;
const shapes = prototypeShapes();

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  coll = client.db('proto_prop').collection('docs');
  await coll.createIndex({ '__proto__.x': 1 });
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const segment = fc.constantFrom('__proto__', 'constructor', 'prototype', 'a', 'x');
const unsafePath = fc
  .array(segment, { minLength: 1, maxLength: 4 })
  .filter((s) => s.some((p) => p === '__proto__' || p === 'constructor' || p === 'prototype'))
  .map((s) => s.join('.'));

type Write = (id: number, path: string, value: number) => Promise<unknown>;
const writes: Record<string, Write> = {
  insert: (id, path, value) => coll.insertOne({ _id: id as never, ...nested(path, value) }),
  $set: async (id, path, value) => {
    await coll.insertOne({ _id: id as never });
    return coll.updateOne({ _id: id as never }, { $set: { [path]: value } });
  },
  $inc: async (id, path, value) => {
    await coll.insertOne({ _id: id as never });
    return coll.updateOne({ _id: id as never }, { $inc: { [path]: value } });
  },
  $rename: async (id, path, value) => {
    await coll.insertOne({ _id: id as never, src: value });
    return coll.updateOne({ _id: id as never }, { $rename: { src: path } });
  },
  upsertFilter: (id, path, value) =>
    coll.updateOne({ _id: id as never, [path]: value }, { $set: { seen: 1 } }, { upsert: true }),
  $setOnInsert: (id, path, value) =>
    coll.updateOne({ _id: id as never }, { $setOnInsert: { [path]: value } }, { upsert: true }),
  replace: async (id, path, value) => {
    await coll.insertOne({ _id: id as never });
    return coll.replaceOne({ _id: id as never }, nested(path, value));
  },
  pipelineUpdate: async (id, path, value) => {
    await coll.insertOne({ _id: id as never });
    return coll.updateOne({ _id: id as never }, [{ $set: { [path]: { $literal: value } } }]);
  },
  findAndModify: (id, path, value) =>
    coll.findOneAndUpdate({ _id: id as never }, { $max: { [path]: value } }, { upsert: true }),
};

let nextId = 0;
it('no generated path reaches a prototype, and each value is stored as a field', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...Object.keys(writes)),
      unsafePath,
      fc.integer({ min: 1, max: 1000 }),
      async (kind, path, value) => {
        const id = nextId++;
        await writes[kind]!(id, path, value);
        expect(prototypeShapes()).toBe(shapes);

        const stored = await coll.findOne({ _id: id as never });
        expect(ownAt(stored, path)).toBe(value);
        // The stored field is what filters, projections, sorts and expressions read.
        const byPath = await coll.find({ _id: id as never, [path]: value }).toArray();
        expect(byPath.map((d) => d._id)).toEqual([id]);
        const [projected] = await coll
          .find({ _id: id as never }, { projection: { _id: 0, [path]: 1 } })
          .toArray();
        expect(ownAt(projected, path)).toBe(value);
        const [computed] = await coll
          .aggregate<Document>([{ $match: { _id: id } }, { $project: { v: `$${path}` } }])
          .toArray();
        expect(computed!.v).toBe(value);
        const sorted = await coll
          .find({ _id: { $in: [id as never] } }, { sort: { [path]: -1 } })
          .toArray();
        expect(sorted).toHaveLength(1);
        // Stages that write a path, and $unset, on the same names.
        const [added] = await coll
          .aggregate<Document>([
            { $match: { _id: id } },
            { $addFields: { [`copy.${path}`]: `$${path}` } },
            { $project: { _id: 0, copy: 1 } },
          ])
          .toArray();
        expect(ownAt(added, `copy.${path}`)).toBe(value);
        await coll.updateOne({ _id: id as never }, { $unset: { [path]: '' } });
        expect(ownAt(await coll.findOne({ _id: id as never }), path)).toBeUndefined();
        expect(prototypeShapes()).toBe(shapes);
      },
    ),
    { numRuns: 150, seed: 612 },
  );
  // The documents that never set these paths still have none of them.
  expect(await coll.countDocuments({ 'constructor.name': 'Object' })).toBe(0);
});
