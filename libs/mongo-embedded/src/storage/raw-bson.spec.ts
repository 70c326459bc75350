import {
  Binary,
  BSONRegExp,
  Code,
  Decimal128,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  deserialize,
  serialize,
} from 'bson';
import { describe, expect, it } from 'vitest';
import { moveIdFirst } from './raw-bson.js';

describe('moveIdFirst', () => {
  const values = {
    d: 1.5,
    s: 'é',
    o: { a: 1 },
    a: [1, 'x'],
    bin: new Binary(Buffer.from([1, 2, 3])),
    oid: new ObjectId(),
    b: true,
    at: new Date(7),
    n: null,
    re: new BSONRegExp('a.b', 'i'),
    code: new Code('x'),
    i: 3,
    ts: new Timestamp({ t: 1, i: 2 }),
    l: Long.fromString('9007199254740993'),
    dec: Decimal128.fromString('1.5'),
    min: new MinKey(),
    max: new MaxKey(),
  };

  it('matches serialising { _id, ...rest } for every BSON type', () => {
    const raw = serialize({ ...values, _id: new ObjectId() });
    const decoded = deserialize(raw);
    const { _id, ...rest } = decoded;
    expect(Buffer.from(moveIdFirst(raw)!)).toEqual(Buffer.from(serialize({ _id, ...rest })));
    expect(deserialize(moveIdFirst(raw)!)).toEqual({ _id, ...rest });
  });

  it('returns the bytes unchanged when _id is already first, and gives up on odd input', () => {
    const first = serialize({ _id: 1, x: 2 });
    expect(moveIdFirst(first)).toBe(first);
    expect(moveIdFirst(serialize({ x: 2 }))).toBeUndefined();
    expect(moveIdFirst(serialize({ x: { _id: 1 } }))).toBeUndefined();
    const twice = Buffer.from(serialize({ a: 1, _id: 1, _ie: 2 }));
    twice[twice.indexOf('_ie')! + 2] = 0x64; // a second "_id" key
    expect(moveIdFirst(twice)).toBeUndefined();
  });
});
