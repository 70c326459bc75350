import { MongoClient, type MongoServerError } from 'mongodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Issue 47: errInfo.details of a `$jsonSchema` failure, in MongoDB 7.0's shape (its manual's
// "Specify JSON Schema Validation" example and doc_validation_error.cpp).
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
let n = 0;
const schema = {
  bsonType: 'object',
  required: ['name', 'price'],
  properties: {
    name: { bsonType: 'string', description: 'must be a string' },
    price: { bsonType: ['double', 'int'], minimum: 0 },
    size: {
      bsonType: 'object',
      required: ['w'],
      properties: { w: { bsonType: 'int', maximum: 100 } },
      additionalProperties: false,
    },
  },
};

/** The errInfo.details of inserting `doc` into a collection validated by `schema`. */
async function detailsOf(doc: Record<string, unknown>): Promise<unknown> {
  const c = await client
    .db('json_schema_errors')
    .createCollection<Doc>(`c${n++}`, { validator: { $jsonSchema: schema } });
  const err = (await c.insertOne({ _id: 1, ...doc }).catch((e: unknown) => e)) as MongoServerError;
  expect(err.code).toBe(121);
  expect(err.errInfo?.failingDocumentId).toBe(1);
  return err.errInfo?.details;
}

it('a missing required property is listed under missingProperties', async () => {
  expect(await detailsOf({ name: 'cup' })).toEqual({
    operatorName: '$jsonSchema',
    schemaRulesNotSatisfied: [
      {
        operatorName: 'required',
        specifiedAs: { required: ['name', 'price'] },
        missingProperties: ['price'],
      },
    ],
  });
});

it('a property of the wrong BSON type names its type, with the schema description', async () => {
  expect(await detailsOf({ name: 7, price: 1 })).toEqual({
    operatorName: '$jsonSchema',
    schemaRulesNotSatisfied: [
      {
        operatorName: 'properties',
        propertiesNotSatisfied: [
          {
            propertyName: 'name',
            description: 'must be a string',
            details: [
              {
                operatorName: 'bsonType',
                specifiedAs: { bsonType: 'string' },
                reason: 'type did not match',
                consideredValue: 7,
                consideredType: 'int',
              },
            ],
          },
        ],
      },
    ],
  });
});

it('a number below minimum is a failed comparison with the value considered', async () => {
  expect(await detailsOf({ name: 'cup', price: -2.5 })).toEqual({
    operatorName: '$jsonSchema',
    schemaRulesNotSatisfied: [
      {
        operatorName: 'properties',
        propertiesNotSatisfied: [
          {
            propertyName: 'price',
            details: [
              {
                operatorName: 'minimum',
                specifiedAs: { minimum: 0 },
                reason: 'comparison failed',
                consideredValue: -2.5,
              },
            ],
          },
        ],
      },
    ],
  });
});

it('nested objects are explained level by level, additional properties by name', async () => {
  const details = (await detailsOf({ name: 'cup', size: { w: 200, h: 3 } })) as {
    schemaRulesNotSatisfied: unknown[];
  };
  expect(details.schemaRulesNotSatisfied).toEqual(
    expect.arrayContaining([
      {
        operatorName: 'required',
        specifiedAs: { required: ['name', 'price'] },
        missingProperties: ['price'],
      },
      {
        operatorName: 'properties',
        propertiesNotSatisfied: [
          {
            propertyName: 'size',
            details: expect.arrayContaining([
              {
                operatorName: 'properties',
                propertiesNotSatisfied: [
                  {
                    propertyName: 'w',
                    details: [
                      {
                        operatorName: 'maximum',
                        specifiedAs: { maximum: 100 },
                        reason: 'comparison failed',
                        consideredValue: 200,
                      },
                    ],
                  },
                ],
              },
              {
                operatorName: 'additionalProperties',
                specifiedAs: { additionalProperties: false },
                additionalProperties: ['h'],
              },
            ]),
          },
        ],
      },
    ]),
  );
  expect(details.schemaRulesNotSatisfied).toHaveLength(2);
});
