import type { Binary, Document } from 'bson';
import type { Options } from 'mingo/core';
import * as comparison from 'mingo/operators/query/comparison';
import { numericTypeAt } from '../numeric/types.js';
import { isPlainDoc, isUnsafeKey, ownField } from '../safety/unsafe-keys.js';
import { bsonTypeOf, NUMERIC_TYPES, typeAlias } from './bson-types.js';
import type { Query } from 'mingo';
import { compareNumeric, typeRank } from '../storage/bson-order.js';
import { encodeKey, MULTI, pathValues, singlePathValue } from '../storage/values.js';
import { isDecimal } from '../numeric/decimal.js';
import { regexKey, regexMatches, regexOperator } from './regex.js';

type QueryOperator = (
  selector: string,
  value: unknown,
  options: Options,
) => (obj: Document) => boolean;

const isBinary = (v: unknown): v is Binary =>
  !!v && typeof v === 'object' && (v as { _bsontype?: string })._bsontype === 'Binary';

/** MongoDB orders BinData by length, then subtype, then bytes. */
function compareBinary(a: Binary, b: Binary): number {
  if (a.position !== b.position) return a.position - b.position;
  if (a.sub_type !== b.sub_type) return a.sub_type - b.sub_type;
  return Buffer.compare(
    Buffer.from(a.buffer.buffer, a.buffer.byteOffset, a.position),
    Buffer.from(b.buffer.buffer, b.buffer.byteOffset, b.position),
  );
}

const isLong = (v: unknown): boolean =>
  !!v && typeof v === 'object' && (v as { _bsontype?: string })._bsontype === 'Long';
/** Numbers mingo cannot compare (it sees objects): an int64 beyond 2^53 and any Decimal128. */
const isExactNumber = (v: unknown): boolean => isLong(v) || isDecimal(v);
const isNumber = (v: unknown): boolean => typeRank(v) === NUMBER_RANK;
const NUMBER_RANK = typeRank(0);

/**
 * The values at `selector` when one of them is an int64 object (beyond 2^53: the decoder keeps
 * those as `Long`) or a Decimal128, else undefined: the common case costs one walk without allocating.
 */
function longsAt(obj: Document, selector: string, parts: string[]): unknown[] | undefined {
  const v = singlePathValue(obj, parts);
  if (v !== MULTI) return isExactNumber(v) ? [v] : undefined;
  const values = pathValues(obj, selector);
  return values.some(isExactNumber) ? values : undefined;
}

/**
 * Ranges as MongoDB compares them where mingo does not: BinData by length, subtype, bytes (mingo
 * compares printed forms), and an int64 or a Decimal128 against any number exactly (mingo
 * compares those as objects, so `{n: {$gt: 5}}` never matched a long beyond 2^53 or a decimal).
 */
function bsonAware(
  name: '$lt' | '$lte' | '$gt' | '$gte',
  holds: (c: number) => boolean,
): QueryOperator {
  const fallback = (comparison as unknown as Record<string, QueryOperator>)[name]!;
  return (selector, value, options) => {
    if (isBinary(value))
      return (obj) =>
        pathValues(obj, selector).some((v) => isBinary(v) && holds(compareBinary(v, value)));
    const test = fallback(selector, value, options);
    if (!isNumber(value)) return test;
    const parts = selector.split('.');
    const exact = (v: unknown) => isNumber(v) && holds(compareNumeric(v, value));
    if (isExactNumber(value)) return (obj) => pathValues(obj, selector).some(exact);
    return (obj) => {
      const values = longsAt(obj, selector, parts);
      return values ? values.some(exact) : test(obj);
    };
  };
}

/** Numbers only an exact comparison can equal: an int64 or a double beyond 2^53, a Decimal128. */
const needsExact = (v: unknown) =>
  isExactNumber(v) || (typeof v === 'number' && Math.abs(v) >= 2 ** 53 && Number.isFinite(v));

/**
 * BSON values mingo's equality cannot tell apart: it compares their own keys (MinKey and MaxKey
 * have none) or their printed forms (a Binary's bytes, without its subtype).
 */
const SPECIAL = new Set([
  'MinKey',
  'MaxKey',
  'Code',
  'DBRef',
  'BSONSymbol',
  'BSONRegExp',
  'Timestamp',
  'Binary',
]);
const isSpecial = (v: unknown): boolean =>
  !!v && typeof v === 'object' && SPECIAL.has((v as { _bsontype?: string })._bsontype ?? '');
/** Compared by `encodeKey`, which keeps a document's field order (and equates 1 with 1.0). */
const isSpecialOrDoc = (v: unknown): boolean => isSpecial(v) || isPlainDoc(v);

/**
 * `$eq`/`$in` (and their negations) where mingo's equality is wrong: between an int64 or a
 * Decimal128 and any number, exactly, on MinKey, MaxKey, Code, DBRef, symbols, BSON regexes,
 * timestamps and BinData by their BSON value, and on embedded documents field by field in order
 * (MongoDB compares BSON: `{h: 14, w: 21}` does not equal `{w: 21, h: 14}`; mingo ignores the
 * order). Everything else is mingo's (and costs nothing more).
 */
function longAwareEquality(name: '$eq' | '$ne' | '$in' | '$nin'): QueryOperator {
  const fallback = (comparison as unknown as Record<string, QueryOperator>)[name]!;
  const negated = name === '$ne' || name === '$nin';
  const isList = name === '$in' || name === '$nin';
  return (selector, value, options) => {
    const wanted = isList ? (Array.isArray(value) ? (value as unknown[]) : []) : [value];
    const special = new Set(wanted.filter(isSpecialOrDoc).map(encodeKey));
    // In `$in`/`$nin` a regex matches strings by pattern (mingo compares it as a value).
    const patterns = isList
      ? wanted.flatMap((w) => (w instanceof RegExp ? [[w, regexKey(w)!] as const] : []))
      : [];
    const exact = wanted.filter(needsExact);
    const plainNumbers = wanted.filter((w) => typeof w === 'number');
    if (special.size === 0 && exact.length === 0 && plainNumbers.length === 0 && !patterns.length)
      return fallback(selector, value, options);
    const rest = wanted.filter((w) => !isSpecialOrDoc(w));
    // mingo negates inside `$ne`/`$nin`; match positively on the rest, negate once here.
    const positive = (comparison as unknown as Record<string, QueryOperator>)[
      isList ? '$in' : '$eq'
    ]!;
    const test =
      rest.length === 0 ? () => false : positive(selector, isList ? rest : rest[0], options);
    const numbers = [...exact, ...plainNumbers];
    const parts = selector.split('.');
    const equal = (v: unknown) =>
      patterns.some(([re, key]) => regexMatches(re, key, v)) ||
      (special.size > 0 && isSpecialOrDoc(v) && special.has(encodeKey(v))) ||
      (isNumber(v) &&
        (isExactNumber(v) || exact.length > 0) &&
        numbers.some((w) => compareNumeric(v, w) === 0));
    return (obj) => {
      const v = singlePathValue(obj, parts);
      const hit = (v === MULTI ? pathValues(obj, selector).some(equal) : equal(v)) || test(obj);
      return negated ? !hit : hit;
    };
  };
}

/**
 * `$all` is the conjunction of one equality (or `$elemMatch`) per value, so it also matches a
 * scalar field equal to its only value; mingo requires the field to be an array. No values match nothing.
 */
const allOperator =
  (compileQuery: (filter: Document) => Query): QueryOperator =>
  (selector, value) => {
    const values = Array.isArray(value) ? value : [];
    const tests = values.map((v) => {
      const elemMatch =
        !!v && typeof v === 'object' && Object.keys(v as object)[0] === '$elemMatch';
      return compileQuery({ [selector]: elemMatch || v instanceof RegExp ? v : { $eq: v } });
    });
    return (obj) => tests.length > 0 && tests.every((q) => q.test(obj));
  };

/** Each value at `selector` with its exact path: a leaf array, then (one level) its elements. */
function leavesAt(
  doc: unknown,
  parts: string[],
  i: number,
  path: string,
  out: [string, unknown][],
): void {
  if (i === parts.length) {
    if (doc === undefined) return;
    out.push([path, doc]);
    if (Array.isArray(doc)) doc.forEach((el, idx) => out.push([`${path}.${idx}`, el]));
    return;
  }
  if (Array.isArray(doc) && !/^\d+$/.test(parts[i]!)) {
    doc.forEach((el, idx) => leavesAt(el, parts, i, `${path}.${idx}`, out));
    return;
  }
  if (doc === null || typeof doc !== 'object') return;
  const key = parts[i]!;
  const next = isUnsafeKey(key) ? ownField(doc, key) : (doc as Document)[key];
  leavesAt(next, parts, i + 1, path ? `${path}.${key}` : key, out);
}

/**
 * `$type` by MongoDB's aliases and codes, for every BSON type: int, long and double are told apart
 * by the stored document's recorded types (numeric/types.ts) and `number` matches any number.
 * (mingo's names its own JavaScript types, so `objectId`, `binData`, `decimal`, `timestamp`,
 * `javascript`, `minKey` and `maxKey` never matched.)
 */
const typeOperator: QueryOperator = (selector, value) => {
  const wanted = new Set((Array.isArray(value) ? (value as unknown[]) : [value]).map(typeAlias));
  const anyNumber = wanted.has('number');
  const parts = selector.split('.');
  return (obj) => {
    const found: [string, unknown][] = [];
    leavesAt(obj, parts, 0, '', found);
    return found.some(([path, v]) => {
      const t = typeof v === 'number' ? numericTypeAt(obj, path, v) : bsonTypeOf(v);
      return wanted.has(t) || (anyNumber && NUMERIC_TYPES.has(t));
    });
  };
};

/**
 * Registered ahead of mingo's own query operators, which they replace. `compileQuery` is passed
 * in (rather than imported) because storage/mingo.ts builds its context from these.
 */
export const queryOverrides = (
  compileQuery: (filter: Document) => Query,
): Record<string, QueryOperator> => ({
  $all: allOperator(compileQuery),
  $type: typeOperator,
  $lt: bsonAware('$lt', (c) => c < 0),
  $lte: bsonAware('$lte', (c) => c <= 0),
  $gt: bsonAware('$gt', (c) => c > 0),
  $gte: bsonAware('$gte', (c) => c >= 0),
  $eq: longAwareEquality('$eq'),
  $ne: longAwareEquality('$ne'),
  $in: longAwareEquality('$in'),
  $nin: longAwareEquality('$nin'),
  $regex: regexOperator,
});
