import { Double, Int32, Long, MongoClient, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';
import { rng } from './plan-oracle.js';

// `$inc`, `$mul`, `$min` and `$max` over every pair of BSON numeric types, against a reference
// written from MongoDB's documented rules: arithmetic widens int32 < int64 < double (an int32
// that overflows becomes an int64), int64 arithmetic is exact, `$min`/`$max` compare across
// types by value and replace the field (value and type) only when the argument wins, and a
// missing field takes the argument ($mul: a zero of the argument's type).

type Kind = 'int' | 'long' | 'double';
interface Num {
  kind: Kind;
  /** Exact value: integers as BigInt, doubles as numbers. */
  v: bigint | number;
}
const WIDTH: Record<Kind, number> = { int: 0, long: 1, double: 2 };
const INT32_MAX = 2n ** 31n - 1n;
const INT32_MIN = -(2n ** 31n);

function bson(n: Num): unknown {
  if (n.kind === 'int') return new Int32(Number(n.v));
  if (n.kind === 'long') return Long.fromBigInt(n.v as bigint);
  return new Double(n.v as number);
}

function fromBson(v: unknown): Num | undefined {
  const t = (v as { _bsontype?: string } | null)?._bsontype;
  if (t === 'Int32') return { kind: 'int', v: BigInt((v as Int32).valueOf()) };
  if (t === 'Long') return { kind: 'long', v: (v as Long).toBigInt() };
  if (t === 'Double') return { kind: 'double', v: (v as Double).valueOf() };
  return undefined;
}

const asNumber = (n: Num) => Number(n.v);
/** Exact comparison (the generated doubles are below 2^53, so a double holds them exactly). */
function compare(a: Num, b: Num): number {
  if (typeof a.v === 'bigint' && typeof b.v === 'bigint') return a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
  return Math.sign(asNumber(a) - asNumber(b));
}

function expected(op: string, field: Num | undefined, arg: Num): Num {
  if (op === '$min' || op === '$max') {
    if (!field) return arg;
    const c = compare(arg, field);
    return (op === '$min' ? c < 0 : c > 0) ? arg : field;
  }
  if (!field) return op === '$inc' ? arg : { kind: arg.kind, v: arg.kind === 'double' ? 0 : 0n };
  const kind = WIDTH[arg.kind] > WIDTH[field.kind] ? arg.kind : field.kind;
  if (kind === 'double') {
    const v = op === '$inc' ? asNumber(field) + asNumber(arg) : asNumber(field) * asNumber(arg);
    return { kind, v };
  }
  const a = field.v as bigint;
  const b = arg.v as bigint;
  const v = op === '$inc' ? a + b : a * b;
  return { kind: kind === 'int' && (v > INT32_MAX || v < INT32_MIN) ? 'long' : kind, v };
}

function randomNum(r: ReturnType<typeof rng>, kind: Kind, forMul: boolean): Num {
  const sign = r.int(2) ? 1n : -1n;
  if (kind === 'int') {
    const edge = [0n, 1n, 7n, 2n ** 31n - 1n, 65_536n][r.int(5)]!;
    return { kind, v: forMul ? BigInt(r.int(50_000)) * sign : edge * sign };
  }
  if (kind === 'long') {
    const big = [5n, 2n ** 53n + BigInt(r.int(9)), 2n ** 60n + 1n, BigInt(r.int(1000))][r.int(4)]!;
    return { kind, v: (forMul ? BigInt(r.int(3_000_000)) : big) * sign };
  }
  const whole = r.int(2) === 0;
  return { kind, v: (r.int(10_000) + (whole ? 0 : 0.5)) * Number(sign) };
}

let server: EmbeddedMongo;
let client: MongoClient;
beforeAll(async () => {
  server = await startEmbeddedMongo({});
  client = await new MongoClient(server.url).connect();
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

describe('numeric update operators against MongoDB type rules (property-based over seeds)', () => {
  const SEEDS = Array.from({ length: 24 }, (_, i) => i + 1);
  const KINDS: Kind[] = ['int', 'long', 'double'];

  it.each(SEEDS)('seed %i: value and BSON type of every operator and type pair', async (seed) => {
    const r = rng(seed * 31 + 7);
    const coll = client.db('arith').collection<Document>(`s${seed}`);
    const raw = { promoteValues: false, promoteLongs: false } as const;
    for (let i = 0; i < 40; i++) {
      const op = r.pick(['$inc', '$mul', '$min', '$max'] as const);
      const forMul = op === '$mul';
      const field = r.int(8) === 0 ? undefined : randomNum(r, r.pick(KINDS), forMul);
      const arg = randomNum(r, r.pick(KINDS), forMul);
      await coll.insertOne({ _id: i as never, ...(field ? { f: bson(field) } : {}) });
      await coll.updateOne({ _id: i as never }, { [op]: { f: bson(arg) } });
      const got = fromBson((await coll.findOne({ _id: i as never }, raw))!.f);
      const want = expected(op, field, arg);
      const label = `${op} ${JSON.stringify(field, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))} by ${arg.kind} ${arg.v}`;
      expect(got?.kind, label).toBe(want.kind);
      expect(String(got?.v), label).toBe(String(want.v));
    }
  });
});

describe('numeric update operators on the document an upsert inserts', () => {
  const raw = { promoteValues: false, promoteLongs: false } as const;
  const ARGS: Num[] = [
    { kind: 'int', v: 7n },
    { kind: 'long', v: 2n ** 53n + 3n },
    { kind: 'double', v: 1.5 },
    { kind: 'double', v: 2 },
  ];
  const CASES = (['$inc', '$mul', '$min', '$max'] as const).flatMap((op) =>
    ARGS.map((arg) => ({ op, arg })),
  );

  it.each(CASES)(
    '$op by $arg.kind $arg.v: update and findAndModify type the field alike',
    async ({ op, arg }) => {
      const coll = client.db('arith').collection<Document>('upserts');
      const want = expected(op, undefined, arg);
      const key = `${op}-${arg.kind}-${String(arg.v)}`;
      await coll.updateOne(
        { _id: `u-${key}` as never },
        { [op]: { f: bson(arg) } },
        { upsert: true },
      );
      await coll.findOneAndUpdate(
        { _id: `m-${key}` as never },
        { [op]: { f: bson(arg) } },
        { upsert: true },
      );
      for (const id of [`u-${key}`, `m-${key}`]) {
        const got = fromBson((await coll.findOne({ _id: id as never }, raw))!.f);
        expect(got?.kind, id).toBe(want.kind);
        expect(String(got?.v), id).toBe(String(want.v));
      }
    },
  );
});
