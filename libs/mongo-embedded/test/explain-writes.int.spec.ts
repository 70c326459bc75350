import { MongoClient, type Db, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';
import { stages } from './plan-oracle.js';

let server: EmbeddedMongo;
let client: MongoClient;
let db: Db;
beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  db = client.db('explain_writes');
  await db.collection('items').createIndex({ sku: 1 });
  await db.collection('items').insertMany([
    { sku: 'a', qty: 1 },
    { sku: 'b', qty: 2 },
  ]);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const explain = (cmd: Document, verbosity = 'queryPlanner') =>
  db.command({ explain: cmd, verbosity });
const planStages = (res: Document) =>
  stages(res.queryPlanner.winningPlan as Document).map((s) => s.stage as string);

describe('explain of writes and distinct (MongoDB plans them and writes nothing)', () => {
  it('update: UPDATE over the query plan, the document unchanged', async () => {
    const res = await explain({
      update: 'items',
      updates: [{ q: { sku: 'a' }, u: { $inc: { qty: 10 } } }],
    });
    expect(planStages(res)).toEqual(['UPDATE', 'LIMIT', 'FETCH', 'IXSCAN']);
    expect(await db.collection('items').findOne({ sku: 'a' })).toMatchObject({ qty: 1 });
  });

  it('delete and findAndModify: DELETE / UPDATE over the plan, nothing removed', async () => {
    const del = await explain({ delete: 'items', deletes: [{ q: { qty: 2 }, limit: 0 }] });
    expect(planStages(del)).toEqual(['DELETE', 'COLLSCAN']);
    const fam = await explain(
      { findAndModify: 'items', query: { sku: 'b' }, remove: true },
      'executionStats',
    );
    expect(planStages(fam)[0]).toBe('DELETE');
    expect(fam.executionStats).toBeDefined();
    expect(await db.collection('items').countDocuments()).toBe(2);
  });

  it('distinct: a plan over its query', async () => {
    const res = await explain({ distinct: 'items', key: 'sku', query: { sku: 'a' } });
    expect(planStages(res)).toContain('IXSCAN');
  });

  it('aggregate: the stages begin with a $cursor stage holding the query plan', async () => {
    const res = await explain({
      aggregate: 'items',
      pipeline: [{ $group: { _id: '$sku' } }],
      cursor: {},
    });
    expect(Object.keys(res.stages[0] as Document)).toEqual(['$cursor']);
    expect(res.stages[1]).toEqual({ $group: { _id: '$sku' } });
  });

  it('an unknown verbosity is BadValue (2)', async () => {
    await expect(explain({ find: 'items', filter: {} }, 'invalid')).rejects.toMatchObject({
      code: 2,
    });
  });
});
