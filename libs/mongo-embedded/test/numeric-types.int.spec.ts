import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Double, Int32, Long, MongoClient } from 'mongodb';
import mongoose from 'mongoose';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo } from '../src/index.js';

// BSON keeps int32, int64 and double apart; a round trip through the server must too.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const typesOf = (d: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(d).map(([k, v]) => [k, (v as { _bsontype?: string })._bsontype ?? typeof v]),
  );

describe('BSON numeric types', () => {
  it('returns int64, int32 and integral doubles as stored, across updates and a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'numeric-'));
    dirs.push(dataDir);
    const big = Long.fromString('9007199254740993'); // 2^53 + 1: not representable as a double
    let server = await startEmbeddedMongo({ dataDir, fsync: 'never' });
    let client = await new MongoClient(server.url).connect();
    const coll = () => client.db('num').collection('values');
    await coll().insertOne({
      _id: new Double(2) as never,
      big,
      small: Long.fromNumber(5),
      i: 7,
      d: new Double(3),
      nested: { l: Long.fromNumber(1), arr: [new Double(4), 1] },
    });
    await coll().updateOne({ _id: 2 as never }, { $inc: { small: 1, d: 1 }, $set: { s: 'x' } });
    const read = async () =>
      (await coll().findOne({ _id: 2 as never }, { promoteValues: false, promoteLongs: false }))!;
    const check = async () => {
      const got = await read();
      expect(typesOf(got)).toMatchObject({
        _id: 'Double',
        big: 'Long',
        small: 'Long',
        i: 'Int32',
        d: 'Double',
      });
      expect((got.big as Long).toString()).toBe('9007199254740993');
      expect((got.small as Long).toNumber()).toBe(6);
      expect((got.d as Double).valueOf()).toBe(4);
      expect((got.nested as { l: unknown }).l).toBeInstanceOf(Long);
      expect((got.nested as { arr: unknown[] }).arr[0]).toBeInstanceOf(Double);
      expect((got.nested as { arr: unknown[] }).arr[1]).toBeInstanceOf(Int32);
    };
    await check();
    await client.close();
    await server.stop();
    server = await startEmbeddedMongo({ dataDir, fsync: 'never' });
    client = await new MongoClient(server.url).connect();
    await check();
    await client.close();
    await server.stop();
  });

  it('tells int, long and double apart in $type and still compares them as numbers', async () => {
    const server = await startEmbeddedMongo({});
    const conn = await mongoose.createConnection(`${server.url}/num`).asPromise();
    try {
      const Counter = conn.model(
        'BigCounter',
        new mongoose.Schema({ name: String, n: mongoose.Schema.Types.BigInt, x: Number }),
      );
      await Counter.create([
        { name: 'long', n: 2n ** 60n + 1n, x: 1.5 },
        { name: 'int', x: 3 },
      ]);
      const names = async (filter: object) =>
        (await Counter.find(filter).sort({ name: 1 }).lean()).map((d) => d.name);
      expect(await names({ n: { $type: 'long' } })).toEqual(['long']);
      expect(await names({ x: { $type: 'int' } })).toEqual(['int']);
      expect(await names({ x: { $type: 'double' } })).toEqual(['long']);
      expect(await names({ x: { $type: 'number' } })).toEqual(['int', 'long']);
      expect(await names({ x: { $type: ['string', 'int'] } })).toEqual(['int']);
      expect((await Counter.findOne({ name: 'long' }))?.n).toBe(2n ** 60n + 1n);
      expect(await names({ x: { $gt: 1 } })).toEqual(['int', 'long']);
    } finally {
      await conn.close();
      await server.stop();
    }
  });

  it('returns a double _id, int64 and int32 declared in a mongoose schema with their types', async () => {
    const server = await startEmbeddedMongo({});
    const conn = await mongoose.createConnection(`${server.url}/num`).asPromise();
    try {
      const Reading = conn.model(
        'TypedReading',
        new mongoose.Schema({
          _id: mongoose.Schema.Types.Double,
          big: mongoose.Schema.Types.BigInt,
          i: mongoose.Schema.Types.Int32,
          d: mongoose.Schema.Types.Double,
        }),
      );
      await Reading.create({ _id: 2, big: 2n ** 60n + 1n, i: 7, d: 3 });
      await Reading.updateOne({ _id: 2 }, { $inc: { big: 1n, d: 1 } });
      const stored = await Reading.collection.findOne(
        {},
        { promoteValues: false, promoteLongs: false },
      );
      expect(typesOf(stored!)).toMatchObject({
        _id: 'Double',
        big: 'Long',
        i: 'Int32',
        d: 'Double',
      });
      expect(Object.keys(stored!)[0]).toBe('_id');
      const doc = await Reading.findById(2);
      expect(doc?.big).toBe(2n ** 60n + 2n);
      expect(await Reading.countDocuments({ _id: { $type: 'double' } })).toBe(1);
      expect(await Reading.countDocuments({ big: { $type: 'long' } })).toBe(1);
      expect(await Reading.countDocuments({ i: { $type: 'int' }, d: { $type: 'double' } })).toBe(1);
    } finally {
      await conn.close();
      await server.stop();
    }
  });

  it('computes $inc, $mul, $min and $max exactly on int64 beyond 2^53, through mongoose', async () => {
    const server = await startEmbeddedMongo({});
    const conn = await mongoose.createConnection(`${server.url}/num`).asPromise();
    try {
      const Seq = conn.model(
        'BigSeq',
        new mongoose.Schema({ name: String, v: mongoose.Schema.Types.BigInt, label: String }),
      );
      const big = 2n ** 60n + 1n;
      const value = async (name: string) => (await Seq.findOne({ name }))?.v;
      await Seq.create([
        { name: 'big', v: big },
        { name: 'small', v: 1n },
        { name: 'edge', v: 2n ** 63n - 1n },
        { name: 'text', label: 'x' },
      ]);
      await Seq.updateOne({ name: 'big' }, { $inc: { v: 1n } });
      expect(await value('big')).toBe(big + 1n);
      // A number plus an int64 argument is an int64 sum, not a concatenation of their texts.
      await Seq.updateOne({ name: 'small' }, { $inc: { v: big } });
      expect(await value('small')).toBe(big + 1n);
      await Seq.updateOne({ name: 'big' }, { $inc: { v: -big } });
      expect(await value('big')).toBe(1n);
      await Seq.updateOne({ name: 'big' }, { $mul: { v: big } });
      expect(await value('big')).toBe(big);
      await Seq.updateOne({ name: 'big' }, { $max: { v: big + 2n } });
      expect(await value('big')).toBe(big + 2n);
      await Seq.updateOne({ name: 'big' }, { $min: { v: big + 1n } });
      expect(await value('big')).toBe(big + 1n);
      await Seq.updateOne({ name: 'big' }, { $min: { v: big + 5n } });
      expect(await value('big')).toBe(big + 1n);
      const stored = await Seq.collection.findOne({ name: 'big' }, { promoteLongs: false });
      expect((stored!.v as Long).toString()).toBe(String(big + 1n));
      await expect(Seq.updateOne({ name: 'edge' }, { $inc: { v: 1n } })).rejects.toMatchObject({
        code: 2,
      });
      expect(await value('edge')).toBe(2n ** 63n - 1n);
      await expect(Seq.updateOne({ name: 'text' }, { $inc: { label: big } })).rejects.toMatchObject(
        { code: 14 },
      );
    } finally {
      await conn.close();
      await server.stop();
    }
  });

  it('types the results of $inc, $mul, $min and $max as MongoDB widens them', async () => {
    const server = await startEmbeddedMongo({});
    const client = await new MongoClient(server.url).connect();
    try {
      const coll = client.db('num').collection('widening');
      const raw = { promoteValues: false, promoteLongs: false } as const;
      const read = async () => (await coll.findOne({ _id: 1 as never }, raw))!;
      await coll.insertOne({
        _id: 1 as never,
        l: Long.fromNumber(5),
        big: Long.fromString('1152921504606846977'),
        d: new Double(2),
        i: 2147483647,
        m: 3,
        x: Long.fromNumber(7),
        y: 1,
      });
      await coll.updateOne(
        { _id: 1 as never },
        {
          $inc: { l: 1.5, big: 0.5, i: 1, y: Long.fromNumber(1) },
          $mul: { d: new Double(1.5) },
          $max: { m: Long.fromNumber(2), x: new Double(9) },
          $min: { z: new Double(4) },
        },
      );
      const once = await read();
      expect(typesOf(once)).toMatchObject({
        l: 'Double', // long + double: a double, not a long truncated to 6
        big: 'Double',
        d: 'Double',
        i: 'Long', // int32 overflow widens to int64
        m: 'Int32', // $max did not replace it: its type stays
        x: 'Double', // $max replaced it with the double argument
        y: 'Long', // int32 + int64
        z: 'Double', // $min on a missing field takes the argument
      });
      expect((once.l as Double).valueOf()).toBe(6.5);
      expect((once.i as Long).toNumber()).toBe(2147483648);
      await coll.updateOne(
        { _id: 1 as never },
        { $mul: { x: 0.5 }, $inc: { d: Long.fromNumber(1), y: 1 } },
      );
      const twice = await read();
      expect(typesOf(twice)).toMatchObject({ x: 'Double', d: 'Double', y: 'Long' });
      expect((twice.x as Double).valueOf()).toBe(4.5);
      expect((twice.y as Long).toNumber()).toBe(3);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it('keeps stored numeric types through pipeline updates and per-document aggregation stages', async () => {
    const server = await startEmbeddedMongo({});
    const conn = await mongoose.createConnection(`${server.url}/num`).asPromise();
    try {
      const Meter = conn.model(
        'PipelineMeter',
        new mongoose.Schema({
          name: String,
          total: mongoose.Schema.Types.BigInt,
          ratio: mongoose.Schema.Types.Double,
          n: Number,
        }),
      );
      await Meter.create({ name: 'm', total: 5n, ratio: 2, n: 1 });
      // A pipeline update that touches another field leaves these fields' types alone.
      await Meter.updateOne({ name: 'm' }, [{ $set: { n: { $add: ['$n', 1] } } }]);
      const raw = { promoteValues: false, promoteLongs: false } as const;
      expect(typesOf((await Meter.collection.findOne({}, raw))!)).toMatchObject({
        total: 'Long',
        ratio: 'Double',
        n: 'Int32',
      });
      for (const pipeline of [
        [{ $match: { name: 'm' } }],
        [{ $match: { n: 2 } }, { $addFields: { seen: true } }],
        [{ $project: { total: 1, ratio: 1 } }],
        [{ $sort: { n: 1 } }, { $set: { x: 1 } }, { $limit: 1 }],
      ]) {
        const [out] = await Meter.collection.aggregate(pipeline, raw).toArray();
        expect(typesOf(out!), JSON.stringify(pipeline)).toMatchObject({
          total: 'Long',
          ratio: 'Double',
        });
      }
    } finally {
      await conn.close();
      await server.stop();
    }
  });

  it('keeps the types of values written by $set, a replacement, an upsert and findOneAndUpdate', async () => {
    const server = await startEmbeddedMongo({});
    const client = await new MongoClient(server.url).connect();
    try {
      const coll = client.db('num').collection('written');
      const raw = { promoteValues: false, promoteLongs: false } as const;
      await coll.insertOne({ _id: 1 as never, a: 1 });
      await coll.updateOne(
        { _id: 1 as never },
        { $set: { l: Long.fromNumber(5), d: new Double(1), 'sub.x': Long.fromNumber(6) } },
      );
      expect(typesOf((await coll.findOne({ _id: 1 as never }, raw))!)).toMatchObject({
        a: 'Int32',
        l: 'Long',
        d: 'Double',
      });
      await coll.replaceOne({ _id: 1 as never }, { r: Long.fromNumber(3), i: 4 });
      expect(typesOf((await coll.findOne({ _id: 1 as never }, raw))!)).toMatchObject({
        r: 'Long',
        i: 'Int32',
      });
      await coll.updateOne({ k: Long.fromNumber(9) }, { $set: { y: 1 } }, { upsert: true });
      expect(typesOf((await coll.findOne({ y: 1 }, raw))!)).toMatchObject({
        k: 'Long',
        y: 'Int32',
      });
      const after = await coll.findOneAndUpdate(
        { _id: 1 as never },
        { $inc: { i: Long.fromNumber(1) } },
        { returnDocument: 'after', ...raw },
      );
      expect(typesOf(after!)).toMatchObject({ i: 'Long', r: 'Long' });
      // A plain number set over a long makes it an int32, as MongoDB stores what it is given.
      await coll.updateOne({ _id: 1 as never }, { $set: { r: 2 } });
      expect(typesOf((await coll.findOne({ _id: 1 as never }, raw))!)).toMatchObject({
        r: 'Int32',
      });
      expect(await coll.countDocuments({ k: { $type: 'long' } })).toBe(1);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
