import { Long, MongoClient, type Collection, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Arithmetic expressions as MongoDB 7.0 documents and implements them: a null or missing operand
// makes the result null; a wrong type, a zero divisor or a second date fails the command with
// MongoDB's code and message (never an InternalError, never a partial write).
let server: EmbeddedMongo;
let client: MongoClient;
let coll: Collection;

const DAY = 86_400_000;
const AT = new Date('2026-03-01T12:00:00.000Z');

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  coll = client.db('arith').collection('docs');
  await coll.insertOne({
    _id: 1 as never,
    n: null,
    x: 7,
    s: 'text',
    at: AT,
    big: Long.fromBigInt(2n ** 60n),
    near: Long.fromBigInt(2n ** 53n - 1n),
  });
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

/** The value of `expr` computed by `$project` over the one document. */
async function value(expr: unknown): Promise<unknown> {
  const [doc] = await coll
    .aggregate<Document>([{ $project: { _id: 0, v: expr } }], { promoteLongs: false })
    .toArray();
  return doc!.v;
}
const failure = (expr: unknown) => coll.aggregate([{ $project: { v: expr } }]).toArray();

describe('null and missing operands make the result null', () => {
  const cases: [string, unknown][] = [
    ['$add', { $add: ['$n', 1] }],
    ['$add (missing)', { $add: [1, '$missing'] }],
    ['$subtract', { $subtract: ['$n', 5] }],
    ['$subtract (missing)', { $subtract: ['$missing', 5] }],
    ['$subtract (date minus missing)', { $subtract: ['$at', '$missing'] }],
    ['$multiply', { $multiply: ['$x', '$n'] }],
    ['$divide', { $divide: ['$missing', 2] }],
    ['$divide by null', { $divide: [2, null] }],
    ['$mod', { $mod: ['$n', DAY] }],
    ['$mod (missing)', { $mod: ['$missing', DAY] }],
    ['$abs', { $abs: '$missing' }],
    ['$ceil', { $ceil: '$n' }],
    ['$floor', { $floor: '$missing' }],
    ['$sqrt', { $sqrt: '$missing' }],
    ['$exp', { $exp: '$n' }],
    ['$ln', { $ln: '$missing' }],
    ['$log10', { $log10: '$n' }],
    ['$log', { $log: ['$missing', 10] }],
    ['$pow', { $pow: ['$n', 2] }],
    ['$pow (missing exponent)', { $pow: [2, '$missing'] }],
    ['$round', { $round: ['$missing', 1] }],
    ['$trunc', { $trunc: ['$missing'] }],
  ];
  it.each(cases)('%s', async (_name, expr) => {
    expect(await value(expr)).toBeNull();
  });

  it('a null operand wins over a later wrong type in $add and $multiply (left to right)', async () => {
    expect(await value({ $add: [null, 'text'] })).toBeNull();
    expect(await value({ $multiply: ['$missing', '$s'] })).toBeNull();
  });

  it('in a find $expr, the query context computes the same', async () => {
    const found = await coll
      .find({ $expr: { $eq: [{ $subtract: ['$missing', 1] }, null] } })
      .toArray();
    expect(found.map((d) => d._id)).toEqual([1]);
  });

  it('in a pipeline update', async () => {
    const updates = client.db('arith').collection('updates');
    await updates.insertOne({ _id: 1 as never, a: 3 });
    await updates.updateOne({ _id: 1 as never }, [
      { $set: { d: { $subtract: ['$missing', 1] }, m: { $mod: ['$gone', 2] } } },
    ]);
    expect(await updates.findOne({ _id: 1 as never })).toEqual({ _id: 1, a: 3, d: null, m: null });
  });
});

describe('numbers', () => {
  it('computes with numbers as before', async () => {
    expect(await value({ $add: ['$x', 1, 0.5] })).toBe(8.5);
    expect(await value({ $subtract: ['$x', 10] })).toBe(-3);
    expect(await value({ $multiply: ['$x', 3] })).toBe(21);
    expect(await value({ $divide: ['$x', 2] })).toBe(3.5);
    expect(await value({ $mod: [-7, 3] })).toBe(-1);
    expect(await value({ $mod: [7.5, 2] })).toBe(1.5);
    expect(await value({ $sqrt: 0 })).toBe(0);
    expect(await value({ $pow: [2, 10] })).toBe(1024);
    expect(await value({ $log: [100, 10] })).toBe(2);
  });

  it('$round rounds half to even on the exact value, $trunc toward zero', async () => {
    expect(await value({ $round: [2.346, 2] })).toBe(2.35);
    expect(await value({ $round: [2.675, 2] })).toBe(2.67); // the double is 2.67499…
    expect(await value({ $round: [0.125, 2] })).toBe(0.12); // exact tie: to even
    expect(await value({ $round: [2.5] })).toBe(2);
    expect(await value({ $round: [-3.5] })).toBe(-4);
    expect(await value({ $round: [1234, -2] })).toBe(1200);
    expect(await value({ $round: [1250, -2] })).toBe(1200);
    expect(await value({ $trunc: [-2.789, 1] })).toBe(-2.7);
    expect(await value({ $trunc: [1299, -2] })).toBe(1200);
    expect(await value({ $trunc: ['$big', -3] })).toEqual(
      Long.fromBigInt((2n ** 60n / 1000n) * 1000n),
    );
  });

  it('keeps int64 arithmetic exact beyond 2^53', async () => {
    expect(await value({ $add: ['$big', 1] })).toEqual(Long.fromBigInt(2n ** 60n + 1n));
    expect(await value({ $subtract: ['$big', 1] })).toEqual(Long.fromBigInt(2n ** 60n - 1n));
    expect(await value({ $multiply: ['$big', 3] })).toEqual(Long.fromBigInt(3n * 2n ** 60n));
    expect(await value({ $mod: [{ $add: ['$big', 5] }, 7] })).toBe(Number((2n ** 60n + 5n) % 7n));
    expect(await value({ $pow: ['$big', 1] })).toEqual(Long.fromBigInt(2n ** 60n));
    expect(await value({ $pow: ['$big', '$big'] })).toBe(Infinity);
    // A stored int64 below 2^53 (held as a number, its type recorded) is exact too.
    expect(await value({ $add: ['$near', 10] })).toEqual(Long.fromBigInt(2n ** 53n + 9n));
    expect(await value({ $multiply: ['$near', 3] })).toEqual(
      Long.fromBigInt(3n * (2n ** 53n - 1n)),
    );
  });
});

describe('dates', () => {
  it('$add of one date and numbers is a date', async () => {
    expect(await value({ $add: ['$at', DAY, 1] })).toEqual(new Date(AT.getTime() + DAY + 1));
  });

  it('$subtract of two dates is milliseconds, of a date and a number a date', async () => {
    expect(await value({ $subtract: ['$at', new Date(AT.getTime() - DAY)] })).toBe(DAY);
    expect(await value({ $subtract: ['$at', DAY] })).toEqual(new Date(AT.getTime() - DAY));
    // Doubles are rounded to whole milliseconds half away from zero: the subtrahend by itself,
    // the sum of $add with the date's milliseconds in it (…998.5 is …999).
    expect(await value({ $subtract: ['$at', 1.5] })).toEqual(new Date(AT.getTime() - 2));
    expect(await value({ $add: ['$at', -1.5] })).toEqual(new Date(AT.getTime() - 1));
  });

  it('$add of two dates is 16612', async () => {
    await expect(failure({ $add: ['$at', '$at'] })).rejects.toMatchObject({
      code: 16612,
      codeName: 'Location16612',
      message: 'only one date allowed in an $add expression',
    });
  });

  it('$subtract of a string from a date, or of a date from a number, is TypeMismatch', async () => {
    await expect(failure({ $subtract: ['$at', '$s'] })).rejects.toMatchObject({
      code: 14,
      codeName: 'TypeMismatch',
      message: "can't $subtract string from Date",
    });
    await expect(failure({ $subtract: [5, '$at'] })).rejects.toMatchObject({
      code: 14,
      message: "can't $subtract date from int",
    });
  });
});

describe('wrong types and zero divisors fail the command', () => {
  const cases: [string, unknown, number, string, string][] = [
    [
      '$add',
      { $add: ['$x', '$s'] },
      14,
      'TypeMismatch',
      '$add only supports numeric or date types, not string',
    ],
    [
      '$multiply',
      { $multiply: ['$x', true] },
      14,
      'TypeMismatch',
      '$multiply only supports numeric types, not bool',
    ],
    ['$subtract', { $subtract: ['$s', 1] }, 14, 'TypeMismatch', "can't $subtract int from string"],
    [
      '$divide',
      { $divide: ['$s', 1] },
      14,
      'TypeMismatch',
      '$divide only supports numeric types, not string and int',
    ],
    ['$divide by zero', { $divide: ['$x', 0] }, 2, 'BadValue', "can't $divide by zero"],
    [
      '$mod',
      { $mod: ['$s', 2] },
      16611,
      'Location16611',
      '$mod only supports numeric types, not string and int',
    ],
    ['$mod by zero', { $mod: ['$x', 0] }, 16610, 'Location16610', "can't $mod by zero"],
    [
      '$abs',
      { $abs: '$s' },
      28765,
      'Location28765',
      '$abs only supports numeric types, not string',
    ],
    [
      '$sqrt of a negative',
      { $sqrt: -1 },
      28714,
      'Location28714',
      "$sqrt's argument must be greater than or equal to 0",
    ],
    [
      '$ln of zero',
      { $ln: 0 },
      28766,
      'Location28766',
      "$ln's argument must be a positive number, but is 0",
    ],
    [
      '$log10 of a negative',
      { $log10: -2 },
      28761,
      'Location28761',
      "$log10's argument must be a positive number, but is -2",
    ],
    [
      '$log base 1',
      { $log: [8, 1] },
      28759,
      'Location28759',
      "$log's base must be a positive number not equal to 1, but is 1",
    ],
    [
      '$pow of 0 to a negative',
      { $pow: [0, -1] },
      28764,
      'Location28764',
      '$pow cannot take a base of 0 and a negative exponent',
    ],
    [
      '$pow of a string',
      { $pow: ['$s', 2] },
      28762,
      'Location28762',
      "$pow's base must be numeric, not string",
    ],
    [
      '$subtract arity',
      { $subtract: [1, 2, 3] },
      16020,
      'Location16020',
      'Expression $subtract takes exactly 2 arguments. 3 were passed in.',
    ],
  ];
  it.each(cases)('%s', async (_name, expr, code, codeName, message) => {
    await expect(failure(expr)).rejects.toMatchObject({ code, codeName, message });
  });

  it('a failing $out pipeline writes nothing', async () => {
    const db = client.db('arith');
    await expect(
      coll
        .aggregate([{ $project: { v: { $divide: ['$x', 0] } } }, { $out: 'outTarget' }])
        .toArray(),
    ).rejects.toMatchObject({ code: 2 });
    const names = (await db.listCollections().toArray()).map((c) => c.name);
    expect(names).not.toContain('outTarget');
  });
});
