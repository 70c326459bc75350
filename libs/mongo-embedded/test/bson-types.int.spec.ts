import {
  Binary,
  Code,
  DBRef,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  MongoClient,
  ObjectId,
  Timestamp,
  UUID,
  type Collection,
} from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Issue 47, items 1 and 2: `$type` in a filter and in an expression, for every BSON type, with
// the names and codes MongoDB 7 uses.
let server: EmbeddedMongo;
let client: MongoClient;
let coll: Collection;

const oid = new ObjectId();
const values: [string, number, unknown][] = [
  ['double', 1, new Double(1.5)],
  ['string', 2, 's'],
  ['object', 3, { a: 1 }],
  ['array', 4, [[1]]],
  ['binData', 5, new Binary(Buffer.from('ab'), 0)],
  ['objectId', 7, oid],
  ['bool', 8, true],
  ['date', 9, new Date(0)],
  ['null', 10, null],
  ['regex', 11, /x/i],
  ['javascript', 13, new Code('f()')],
  ['int', 16, new Int32(7)],
  ['timestamp', 17, new Timestamp({ t: 1, i: 2 })],
  ['long', 18, Long.fromNumber(5)],
  ['decimal', 19, Decimal128.fromString('1.5')],
  ['minKey', -1, new MinKey()],
  ['maxKey', 127, new MaxKey()],
];

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  coll = client.db('types').collection('values');
  await coll.insertMany(values.map(([name, , v]) => ({ _id: name as never, v })));
  await coll.insertOne({ _id: 'uuid' as never, v: new UUID() });
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const ids = async (filter: object) =>
  (await coll.find(filter, { sort: { _id: 1 } }).toArray()).map((d) => d._id as unknown as string);

describe('$type in a filter (issue 47, item 1)', () => {
  it.each(values)('%s matches by alias and by code %i', async (name, code) => {
    const expected = name === 'binData' ? ['binData', 'uuid'] : [name];
    expect(await ids({ v: { $type: name } })).toEqual(expected);
    expect(await ids({ v: { $type: code } })).toEqual(expected);
  });

  it('an _id both equal and of the right type matches (it used to match nothing)', async () => {
    expect(await ids({ v: { $eq: oid, $type: 'objectId' } })).toEqual(['objectId']);
  });

  it('"number" matches every numeric type, and an array matches by its elements too', async () => {
    expect(await ids({ v: { $type: 'number' } })).toEqual(['decimal', 'double', 'int', 'long']);
    expect(await ids({ v: { $type: ['minKey', 'maxKey'] } })).toEqual(['maxKey', 'minKey']);
  });

  it('an unknown alias or code is BadValue (2), as MongoDB answers', async () => {
    await expect(coll.find({ v: { $type: 'objectid' } }).toArray()).rejects.toMatchObject({
      code: 2,
      message: 'Unknown type name alias: objectid',
    });
    await expect(coll.find({ v: { $type: 99 } }).toArray()).rejects.toMatchObject({ code: 2 });
  });
});

describe('the $type expression (issue 47, item 2)', () => {
  it('names every type as MongoDB does; a stored int64 is "long"', async () => {
    const out = await coll
      .aggregate([{ $project: { t: { $type: '$v' } } }, { $sort: { _id: 1 } }])
      .toArray();
    const byId = Object.fromEntries(out.map((d) => [d._id as unknown as string, d.t]));
    for (const [name] of values) expect(byId[name], name).toBe(name);
    expect(byId.uuid).toBe('binData');
    expect(
      await coll
        .aggregate([{ $match: { _id: 'int' } }, { $project: { _id: 0, t: { $type: '$none' } } }])
        .toArray(),
    ).toEqual([{ t: 'missing' }]);
  });

  it('a $type expression inside $expr uses the same names', async () => {
    expect(await ids({ $expr: { $eq: [{ $type: '$v' }, 'long'] } })).toEqual(['long']);
  });

  it('a DBRef is an embedded document', async () => {
    const refs = client.db('types').collection('refs');
    await refs.insertOne({ _id: 1 as never, r: new DBRef('x', oid) });
    expect(await refs.countDocuments({ r: { $type: 'object' } })).toBe(1);
    const [d] = await refs.aggregate([{ $project: { t: { $type: '$r' } } }]).toArray();
    expect(d!.t).toBe('object');
  });
});
