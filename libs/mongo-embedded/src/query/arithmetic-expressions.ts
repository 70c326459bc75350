import { Long, type Document } from 'bson';
import { computeValue, type Options } from 'mingo/core';
import { badValue, CommandError } from '../errors.js';
import { exactOf } from '../numeric/decimal.js';
import { int32Range, numericTypeAt } from '../numeric/types.js';
import { bsonTypeOf } from './bson-types.js';

/**
 * MongoDB 7.0's arithmetic expressions. mingo's coerce null and missing operands with `+n` (0 or
 * NaN), throw plain errors (which would reach the client as BadValue) for a null `$subtract`,
 * and answer Infinity/NaN where MongoDB fails the command. Here a null or missing operand makes
 * the result null, a wrong type or a zero divisor is MongoDB's error code and message, and an
 * int64 operand keeps integer arithmetic exact. Decimal128 operands compute in doubles (README).
 */

type Op = (obj: Document, expr: unknown, options: Options) => unknown;

const typeMismatch = (msg: string) => new CommandError(14, 'TypeMismatch', msg);
const located = (code: number, msg: string) => new CommandError(code, `Location${code}`, msg);

const nullish = (v: unknown): v is null | undefined => v === null || v === undefined;
const tagOf = (v: unknown) => (v as { _bsontype?: string } | null)?._bsontype;
const isLong = (v: unknown): v is Long => tagOf(v) === 'Long';
const NUMERIC_TAGS = new Set(['Long', 'Int32', 'Double', 'Decimal128']);
export const isNumeric = (v: unknown): boolean =>
  typeof v === 'number' || (typeof v === 'object' && v !== null && NUMERIC_TAGS.has(tagOf(v)!));

export function toDouble(v: unknown): number {
  if (typeof v === 'number') return v;
  if (isLong(v)) return v.toNumber();
  // Decimal128 has no numeric valueOf; its text is exact.
  if (tagOf(v) === 'Decimal128') return Number(String(v));
  return Number((v as { valueOf(): unknown }).valueOf());
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An int64 result: a plain number while exact, a `Long` past 2^53, a double past int64. */
function fromBigInt(n: bigint): number | Long {
  if (n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER))
    return Number(n);
  if (n >= INT64_MIN && n <= INT64_MAX) return Long.fromBigInt(n);
  return Number(n);
}

/** Integer arithmetic is exact only when an int64 takes part and every operand is integral. */
const exactIntegers = (vs: unknown[]): boolean =>
  vs.some(isLong) && vs.every((v) => isLong(v) || (typeof v === 'number' && Number.isInteger(v)));
const big = (v: unknown): bigint => (isLong(v) ? v.toBigInt() : BigInt(v as number));

/**
 * One operand's value. A stored int64 within 2^53 is held as a plain number (its type recorded
 * beside the document); it is handed on as a `Long` so the arithmetic on it stays exact.
 */
function operand(obj: Document, expr: unknown, options: Options): unknown {
  const v = computeValue(obj, expr, null, options) as unknown;
  if (typeof v !== 'number' || int32Range(v) || !Number.isInteger(v)) return v;
  if (typeof expr !== 'string' || !/^\$[^$]/.test(expr)) return v;
  return numericTypeAt(obj, expr.slice(1), v) === 'long' ? Long.fromNumber(v) : v;
}

/** A non-array operand is one argument (`{$abs: '$x'}`), an array lists them. */
const operands = (obj: Document, expr: unknown, options: Options): unknown[] =>
  Array.isArray(expr) ? expr.map((e) => operand(obj, e, options)) : [operand(obj, expr, options)];

function exactly(name: string, n: number, args: unknown[]): unknown[] {
  if (args.length !== n)
    throw located(
      16020,
      `Expression ${name} takes exactly ${n} arguments. ${args.length} were passed in.`,
    );
  return args;
}

const roundHalfAway = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

const $add: Op = (obj, expr, options) => {
  const args = operands(obj, expr, options);
  let date: Date | undefined;
  const nums: unknown[] = [];
  for (const v of args) {
    if (nullish(v)) return null;
    if (v instanceof Date) {
      if (date) throw located(16612, 'only one date allowed in an $add expression');
      date = v;
    } else if (isNumeric(v)) nums.push(v);
    else throw typeMismatch(`$add only supports numeric or date types, not ${bsonTypeOf(v)}`);
  }
  const total = exactIntegers(nums)
    ? fromBigInt(nums.reduce<bigint>((s, v) => s + big(v), 0n))
    : nums.reduce<number>((s, v) => s + toDouble(v), 0);
  if (!date) return total;
  // MongoDB sums the date's milliseconds with the numbers, then rounds a double sum half away.
  return new Date(
    typeof total === 'number' && !Number.isInteger(total)
      ? roundHalfAway(date.getTime() + total)
      : date.getTime() + toDouble(total),
  );
};

const $subtract: Op = (obj, expr, options) => {
  const [a, b] = exactly('$subtract', 2, operands(obj, expr, options));
  if (isNumeric(a) && isNumeric(b))
    return exactIntegers([a, b]) ? fromBigInt(big(a) - big(b)) : toDouble(a) - toDouble(b);
  if (nullish(a) || nullish(b)) return null;
  if (a instanceof Date) {
    if (b instanceof Date) return a.getTime() - b.getTime();
    if (isNumeric(b)) return new Date(a.getTime() - roundHalfAway(toDouble(b)));
    throw typeMismatch(`can't $subtract ${bsonTypeOf(b)} from Date`);
  }
  throw typeMismatch(`can't $subtract ${bsonTypeOf(b)} from ${bsonTypeOf(a)}`);
};

const $multiply: Op = (obj, expr, options) => {
  const args = operands(obj, expr, options);
  for (const v of args) {
    if (nullish(v)) return null;
    if (!isNumeric(v))
      throw typeMismatch(`$multiply only supports numeric types, not ${bsonTypeOf(v)}`);
  }
  return exactIntegers(args)
    ? fromBigInt(args.reduce<bigint>((p, v) => p * big(v), 1n))
    : args.reduce<number>((p, v) => p * toDouble(v), 1);
};

const $divide: Op = (obj, expr, options) => {
  const [a, b] = exactly('$divide', 2, operands(obj, expr, options));
  if (isNumeric(a) && isNumeric(b)) {
    const denominator = toDouble(b);
    if (denominator === 0) throw badValue("can't $divide by zero");
    return toDouble(a) / denominator;
  }
  if (nullish(a) || nullish(b)) return null;
  throw typeMismatch(
    `$divide only supports numeric types, not ${bsonTypeOf(a)} and ${bsonTypeOf(b)}`,
  );
};

const $mod: Op = (obj, expr, options) => {
  const [a, b] = exactly('$mod', 2, operands(obj, expr, options));
  if (isNumeric(a) && isNumeric(b)) {
    if (toDouble(b) === 0) throw located(16610, "can't $mod by zero");
    // Both truncate: the remainder takes the dividend's sign, as C's fmod and `%` do.
    return exactIntegers([a, b]) ? fromBigInt(big(a) % big(b)) : toDouble(a) % toDouble(b);
  }
  if (nullish(a) || nullish(b)) return null;
  throw located(
    16611,
    `$mod only supports numeric types, not ${bsonTypeOf(a)} and ${bsonTypeOf(b)}`,
  );
};

/** `$abs`, `$ceil`, ...: one numeric argument; null or missing is null. */
function unary(name: string, fn: (v: unknown) => unknown): Op {
  return (obj, expr, options) => {
    const [v] = exactly(name, 1, operands(obj, expr, options));
    if (nullish(v)) return null;
    if (!isNumeric(v))
      throw located(28765, `${name} only supports numeric types, not ${bsonTypeOf(v)}`);
    return fn(v);
  };
}

const LONG_MIN = -(2n ** 63n);

const $abs = unary('$abs', (v) => {
  if (!isLong(v)) return Math.abs(toDouble(v));
  const n = v.toBigInt();
  if (n === LONG_MIN) throw located(28680, "can't take $abs of long long min");
  return fromBigInt(n < 0n ? -n : n);
});
const $ceil = unary('$ceil', (v) => (isLong(v) ? v : Math.ceil(toDouble(v))));
const $floor = unary('$floor', (v) => (isLong(v) ? v : Math.floor(toDouble(v))));
const $exp = unary('$exp', (v) => Math.exp(toDouble(v)));
const $sqrt = unary('$sqrt', (v) => {
  const n = toDouble(v);
  if (n < 0) throw located(28714, "$sqrt's argument must be greater than or equal to 0");
  return Math.sqrt(n);
});
const $ln = unary('$ln', (v) => {
  const n = toDouble(v);
  if (n <= 0) throw located(28766, `$ln's argument must be a positive number, but is ${n}`);
  return Math.log(n);
});
const $log10 = unary('$log10', (v) => {
  const n = toDouble(v);
  if (n <= 0) throw located(28761, `$log10's argument must be a positive number, but is ${n}`);
  return Math.log10(n);
});

const $log: Op = (obj, expr, options) => {
  const [a, b] = exactly('$log', 2, operands(obj, expr, options));
  if (nullish(a) || nullish(b)) return null;
  if (!isNumeric(a)) throw located(28756, `$log's argument must be numeric, not ${bsonTypeOf(a)}`);
  if (!isNumeric(b)) throw located(28757, `$log's base must be numeric, not ${bsonTypeOf(b)}`);
  const n = toDouble(a);
  const base = toDouble(b);
  if (Number.isNaN(n) || Number.isNaN(base)) return NaN;
  if (n <= 0) throw located(28758, `$log's argument must be a positive number, but is ${n}`);
  if (base <= 0 || base === 1)
    throw located(28759, `$log's base must be a positive number not equal to 1, but is ${base}`);
  return Math.log(n) / Math.log(base);
};

const $pow: Op = (obj, expr, options) => {
  const [a, b] = exactly('$pow', 2, operands(obj, expr, options));
  if (nullish(a) || nullish(b)) return null;
  if (!isNumeric(a)) throw located(28762, `$pow's base must be numeric, not ${bsonTypeOf(a)}`);
  if (!isNumeric(b)) throw located(28763, `$pow's exponent must be numeric, not ${bsonTypeOf(b)}`);
  const base = toDouble(a);
  const exponent = toDouble(b);
  if (base === 0 && exponent < 0)
    throw located(28764, '$pow cannot take a base of 0 and a negative exponent');
  const result = Math.pow(base, exponent);
  // Integers to a non-negative integral power stay integers while they fit an int64.
  if (
    !Number.isSafeInteger(result) &&
    Math.abs(result) < 2 ** 64 && // else BigInt would compute a huge power for nothing
    exactIntegers([a, b]) &&
    exponent >= 0
  ) {
    const exact = big(a) ** big(b);
    if (exact >= INT64_MIN && exact <= INT64_MAX) return fromBigInt(exact);
  }
  return result;
};

/**
 * `x` rounded (half to even) or truncated to `place` decimal digits, computed on its exact
 * decimal value as MongoDB does (a double's binary value: 2.675 is 2.67499…, so 2.67).
 */
function quantize(x: unknown, place: number, mode: 'round' | 'trunc'): number | Long {
  const e = exactOf(x);
  if (e.kind !== 'finite') return toDouble(x);
  if (e.exp >= -place) return isLong(x) ? x : toDouble(x);
  const divisor = 10n ** BigInt(-place - e.exp);
  let q = e.coef / divisor;
  const r = e.coef % divisor;
  if (mode === 'round' && r !== 0n) {
    const twice = 2n * (r < 0n ? -r : r);
    if (twice > divisor || (twice === divisor && q % 2n !== 0n)) q += e.coef < 0n ? -1n : 1n;
  }
  // `q` counts units of 10^-place; an int64 stays one (only a negative place gets here).
  if (isLong(x)) return fromBigInt(q * 10n ** BigInt(-place));
  const value = Number(`${q}e${-place}`);
  return value === 0 && e.coef < 0n ? -0 : value;
}

/** `$round` and `$trunc`: `[number, place?]` or `number`. */
function rounding(name: string, mode: 'round' | 'trunc'): Op {
  return (obj, expr, options) => {
    const args = operands(obj, expr, options);
    if (args.length < 1 || args.length > 2)
      throw located(
        28667,
        `Expression ${name} takes at least 1 arguments, and at most 2, but ${args.length} were passed in.`,
      );
    const [v, placeArg] = args;
    if (nullish(v)) return null;
    if (!isNumeric(v))
      throw located(51081, `${name} only supports numeric types, not ${bsonTypeOf(v)}`);
    let place = 0;
    if (args.length === 2) {
      if (nullish(placeArg)) return null;
      const p = isNumeric(placeArg) ? toDouble(placeArg) : NaN;
      if (!Number.isInteger(p))
        throw located(51082, `precision argument to  ${name} must be a integral value`);
      if (p < -20 || p > 100)
        throw located(
          51083,
          `cannot apply ${name} with precision value ${p} value must be in [-20, 100]`,
        );
      place = p;
    }
    return quantize(v, place, mode);
  };
}

export const ARITHMETIC_EXPRESSIONS = {
  $add,
  $subtract,
  $multiply,
  $divide,
  $mod,
  $abs,
  $ceil,
  $floor,
  $exp,
  $sqrt,
  $ln,
  $log10,
  $log,
  $pow,
  $round: rounding('$round', 'round'),
  $trunc: rounding('$trunc', 'trunc'),
};
