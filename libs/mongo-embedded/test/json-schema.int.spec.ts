import { Long, MongoClient, ObjectId } from 'mongodb';
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

type Doc = { _id: number; [field: string]: unknown };
const db = () => client.db('json_schema');
let n = 0;
/** Whether a collection validated by `schema` accepts `doc` (a fresh collection per call). */
async function accepts(schema: object, doc: Record<string, unknown>): Promise<boolean> {
  const c = await db().createCollection<Doc>(`c${n++}`, { validator: { $jsonSchema: schema } });
  return c.insertOne({ _id: 1, ...doc }).then(
    () => true,
    (err: { code?: number }) => {
      expect(err.code).toBe(121);
      return false;
    },
  );
}

describe('$jsonSchema, MongoDB dialect', () => {
  it('bsonType and type, numbers told apart by their stored BSON type', async () => {
    const schema = { properties: { n: { bsonType: 'long' } } };
    expect(await accepts(schema, { n: Long.fromNumber(5) })).toBe(true);
    expect(await accepts(schema, { n: 5 })).toBe(false);
    expect(await accepts({ properties: { n: { bsonType: 'number' } } }, { n: 5.5 })).toBe(true);
    expect(await accepts({ properties: { n: { type: 'number' } } }, { n: 'five' })).toBe(false);
    expect(
      await accepts({ properties: { id: { bsonType: 'objectId' } } }, { id: new ObjectId() }),
    ).toBe(true);
    expect(
      await accepts({ properties: { v: { bsonType: ['string', 'null'] } } }, { v: null }),
    ).toBe(true);
    expect(await accepts({ properties: { v: { type: 'object' } } }, { v: [] })).toBe(false);
  });

  it('required, enum, ranges, lengths, patterns; keywords apply to their own kind only', async () => {
    const schema = {
      bsonType: 'object',
      required: ['name'],
      properties: {
        name: { bsonType: 'string', minLength: 2, maxLength: 4, pattern: '^[a-z]+$' },
        age: { minimum: 0, maximum: 150, exclusiveMaximum: true },
        kind: { enum: ['a', 'b', null] },
      },
    };
    expect(await accepts(schema, { name: 'ann', age: 3, kind: null })).toBe(true);
    expect(await accepts(schema, { age: 3 })).toBe(false);
    expect(await accepts(schema, { name: 'a' })).toBe(false);
    expect(await accepts(schema, { name: 'Ann' })).toBe(false);
    expect(await accepts(schema, { name: 'ann', age: 150 })).toBe(false);
    expect(await accepts(schema, { name: 'ann', age: 'old' })).toBe(true); // minimum: numbers only
    expect(await accepts(schema, { name: 'ann', kind: 'c' })).toBe(false);
  });

  it('arrays, nested documents, additional and pattern properties, combinators', async () => {
    const schema = {
      // `_id` too: with `additionalProperties: false` MongoDB refuses a field no schema names.
      properties: {
        _id: { bsonType: 'int' },
        tags: { bsonType: 'array', items: { bsonType: 'string' }, uniqueItems: true, maxItems: 3 },
        map: { bsonType: 'object', additionalProperties: { bsonType: 'int' } },
        sub: { bsonType: 'object', properties: { x: { bsonType: 'int' } }, required: ['x'] },
        pick: { oneOf: [{ bsonType: 'string' }, { bsonType: 'int' }] },
        not5: { not: { enum: [5] } },
      },
      patternProperties: { '^s_': { bsonType: 'string' } },
      additionalProperties: false,
    };
    expect(
      await accepts(schema, {
        tags: ['a'],
        map: { k: 1 },
        sub: { x: 1 },
        pick: 2,
        s_a: 'x',
        not5: 4,
      }),
    ).toBe(true);
    expect(await accepts(schema, { tags: ['a', 'a'] })).toBe(false);
    expect(await accepts(schema, { tags: [1] })).toBe(false);
    expect(await accepts(schema, { map: { k: 'v' } })).toBe(false);
    expect(await accepts(schema, { sub: {} })).toBe(false);
    expect(await accepts(schema, { s_a: 1 })).toBe(false);
    expect(await accepts(schema, { other: 1 })).toBe(false);
    expect(await accepts(schema, { not5: 5 })).toBe(false);
  });

  it('works in a find filter too', async () => {
    const c = db().collection<Doc>('filtered');
    await c.insertMany([{ _id: 1, a: 'x' }, { _id: 2, a: 2 }, { _id: 3 }]);
    const ids = await c
      .find({ $jsonSchema: { required: ['a'], properties: { a: { bsonType: 'string' } } } })
      .map((d) => d._id)
      .toArray();
    expect(ids).toEqual([1]);
  });

  it('refuses what MongoDB refuses (9 FailedToParse) and encryption keywords (238)', async () => {
    for (const schema of [{ $ref: '#/x' }, { type: 'integer' }, { bogus: 1 }, { required: [] }])
      await expect(
        db().createCollection(`bad${n++}`, { validator: { $jsonSchema: schema } }),
      ).rejects.toMatchObject({ code: 9 });
    await expect(
      db().createCollection(`bad${n++}`, { validator: { $jsonSchema: { encrypt: {} } } }),
    ).rejects.toMatchObject({ code: 238 });
  });
});
