import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Double, Int32, Long, MongoClient } from 'mongodb';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedMongo } from '../src/index.js';

// An int64 or an integral double pushed into an array is stored as that type, as MongoDB stores
// what it is given; it must come back so after later updates and after a restart.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

interface Row {
  _id: number;
  arr?: unknown[];
  tags?: unknown[];
  items?: unknown[];
}

const kinds = (values: unknown[]) => values.map((v) => (v as { _bsontype?: string })._bsontype);

it('keeps the BSON type of values added by $push and $addToSet, through updates and a restart', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'numeric-push-'));
  dirs.push(dataDir);
  let server = await startEmbeddedMongo({ dataDir, fsync: 'never' });
  let client = await new MongoClient(server.url).connect();
  const coll = () => client.db('num').collection<Row>('push');
  const raw = { promoteValues: false, promoteLongs: false } as const;
  await coll().insertOne({ _id: 1, arr: [1], tags: [2] });
  await coll().updateOne({ _id: 1 }, { $push: { arr: Long.fromNumber(5) } });
  await coll().updateOne(
    { _id: 1 },
    { $push: { arr: { $each: [Long.fromNumber(6), new Double(7)], $position: 0 } } },
  );
  await coll().updateOne({ _id: 1 }, { $addToSet: { tags: { $each: [2, Long.fromNumber(3)] } } });
  await coll().updateOne({ _id: 1 }, { $push: { items: { sku: 'a', qty: Long.fromNumber(2) } } });
  await coll().updateOne({ _id: 1 }, { $inc: { 'arr.2': 1 } });
  await coll().updateOne({ _id: 2 }, { $push: { arr: Long.fromNumber(8) } }, { upsert: true });
  await coll().findOneAndUpdate({ _id: 2 }, { $addToSet: { arr: new Double(9) } });

  const check = async () => {
    const one = (await coll().findOne({ _id: 1 }, raw))!;
    expect(kinds(one.arr as unknown[])).toEqual(['Long', 'Double', 'Int32', 'Long']);
    expect((one.arr as unknown[]).map(Number)).toEqual([6, 7, 2, 5]);
    expect(kinds(one.tags as unknown[])).toEqual(['Int32', 'Long']);
    expect((one.items as { qty: unknown }[])[0]!.qty).toBeInstanceOf(Long);
    const two = (await coll().findOne({ _id: 2 }, raw))!;
    expect(kinds(two.arr as unknown[])).toEqual(['Long', 'Double']);
    expect(await coll().countDocuments({ 'arr.0': { $type: 'long' } })).toBe(2);
  };
  await check();
  await client.close();
  await server.stop();
  server = await startEmbeddedMongo({ dataDir, fsync: 'never' });
  client = await new MongoClient(server.url).connect();
  await check();
  // A $push that sorts or slices still stores the right values (their types then go by value).
  await coll().updateOne({ _id: 2 }, { $push: { arr: { $each: [new Int32(1)], $sort: 1 } } });
  expect((await coll().findOne({ _id: 2 }))!.arr).toEqual([1, 8, 9]);
  await client.close();
  await server.stop();
});
