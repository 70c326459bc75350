import { MongoClient, type Collection, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// `$group` accumulators over a field that is null or missing in every document of a group: the
// group's output has the field, as MongoDB 7.0 answers it ($max/$min/$first/$last/$avg null,
// $sum 0, $push/$addToSet without the missing values).
let server: EmbeddedMongo;
let client: MongoClient;
let coll: Collection;

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  coll = client.db('groups').collection('docs');
  await coll.insertMany([
    { _id: 1 as never, g: 'missing' },
    { _id: 2 as never, g: 'missing' },
    { _id: 3 as never, g: 'null', f: null },
    { _id: 4 as never, g: 'null', f: null },
    { _id: 5 as never, g: 'mixed' },
    { _id: 6 as never, g: 'mixed', f: 4 },
    { _id: 7 as never, g: 'mixed', f: null },
    { _id: 8 as never, g: 'mixed', f: 9 },
  ]);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

async function group(accumulator: Document): Promise<Record<string, unknown>> {
  const out = await coll
    .aggregate<Document>([{ $sort: { _id: 1 } }, { $group: { _id: '$g', v: accumulator } }])
    .toArray();
  return Object.fromEntries(out.map((d) => [d._id as string, 'v' in d ? d.v : 'absent']));
}

describe('$group accumulators on null and missing fields', () => {
  it('$max is null when every value is null or missing, else ignores them', async () => {
    expect(await group({ $max: '$f' })).toEqual({ missing: null, null: null, mixed: 9 });
  });

  it('$min is null when every value is null or missing, else ignores them', async () => {
    expect(await group({ $min: '$f' })).toEqual({ missing: null, null: null, mixed: 4 });
  });

  it('$first and $last are null for a missing field', async () => {
    expect(await group({ $first: '$f' })).toEqual({ missing: null, null: null, mixed: null });
    expect(await group({ $last: '$f' })).toEqual({ missing: null, null: null, mixed: 9 });
  });

  it('$avg is null without a numeric value', async () => {
    expect(await group({ $avg: '$f' })).toEqual({ missing: null, null: null, mixed: 6.5 });
  });

  it('$sum is 0 without a numeric value', async () => {
    expect(await group({ $sum: '$f' })).toEqual({ missing: 0, null: 0, mixed: 13 });
  });

  it('$push and $addToSet leave missing values out and keep nulls', async () => {
    expect(await group({ $push: '$f' })).toEqual({
      missing: [],
      null: [null, null],
      mixed: [4, null, 9],
    });
    const sets = await group({ $addToSet: '$f' });
    expect(sets.missing).toEqual([]);
    expect(sets.null).toEqual([null]);
    expect((sets.mixed as unknown[]).length).toBe(3);
  });

  it('as array expressions, $max/$min/$avg of nulls are null', async () => {
    const [doc] = await coll
      .aggregate<Document>([
        { $match: { _id: 1 } },
        {
          $project: {
            _id: 0,
            max: { $max: [null, '$missing'] },
            min: { $min: ['$missing'] },
            avg: { $avg: ['$missing', 'x'] },
            mixed: { $max: [3, null, 1] },
          },
        },
      ])
      .toArray();
    expect(doc).toEqual({ max: null, min: null, avg: null, mixed: 3 });
  });
});
