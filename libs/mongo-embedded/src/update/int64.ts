import { EJSON, Long, type Document } from 'bson';
import { CommandError, badValue } from '../errors.js';
import { numericTypeAt } from '../numeric/types.js';
import { compareBson } from '../storage/bson-order.js';
import { encodeKey } from '../storage/values.js';

/** Operators whose result depends on numeric values (and so on an int64's exact value). */
export const INT64_SENSITIVE = new Set(['$inc', '$mul', '$min', '$max']);

const isLong = (v: unknown): v is Long =>
  (v as { _bsontype?: string } | null)?._bsontype === 'Long';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function valueAt(doc: Document, parts: string[]): unknown {
  let cur: unknown = doc;
  for (const part of parts) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Sets `value` at `parts`, creating missing subdocuments (the path was checked viable before). */
function setAt(doc: Document, parts: string[], value: unknown): void {
  let cur = doc as Record<string, unknown>;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = cur[parts[i]!];
    if (next === undefined || next === null) cur[parts[i]!] = {};
    cur = cur[parts[i]!] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]!] = value;
}

/** An int64 the way the decoder holds one: a number up to 2^53, a `Long` beyond. */
function int64Value(n: bigint): number | Long {
  const asNumber = Number(n);
  return Number.isSafeInteger(asNumber) ? asNumber : Long.fromBigInt(n);
}

const typeName = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : v instanceof Date
        ? 'date'
        : typeof v === 'object'
          ? ((v as { _bsontype?: string })._bsontype?.toLowerCase() ?? 'object')
          : typeof v;

const shown = (doc: Document) => EJSON.stringify({ _id: doc._id } as Document, { relaxed: true });

/**
 * `$inc`/`$mul`/`$min`/`$max` on the fields where an int64 beyond 2^53 (held as a `Long`) is the
 * current value or the argument, computed exactly as MongoDB does: mingo computes with JavaScript
 * numbers, so it refused to increment a `Long` and concatenated `1 + Long` into a string. `$inc`
 * and `$mul` on or with a non-number answer MongoDB's TypeMismatch (14) here too. The other fields
 * (every field, almost always) are returned in `rest` for mingo. `original` is the
 * stored document, whose recorded types tell an integral double from an integer.
 */
export function applyInt64Operators(
  op: string,
  args: Document,
  doc: Document,
  original: Document,
): { rest: Document; modified: boolean } {
  let rest: Document | undefined;
  let modified = false;
  for (const path in args) {
    const arg = args[path];
    const parts = path.split('.');
    const current = path.includes('$') ? undefined : valueAt(doc, parts);
    if (
      path.includes('$') ||
      !(
        isLong(arg) ||
        isLong(current) ||
        notArithmetic(op, current, arg) ||
        inexact(op, current, arg)
      )
    ) {
      (rest ??= {})[path] = arg;
      continue;
    }
    const next =
      op === '$min' || op === '$max'
        ? extreme(op, current, arg)
        : arithmetic(op, current, arg, path, doc, original);
    if (next === current) continue;
    if (encodeKey(next) !== encodeKey(current) || typeName(next) !== typeName(current))
      modified = true;
    setAt(doc, parts, next);
  }
  return { rest: rest ?? {}, modified };
}

/** `$inc`/`$mul` that MongoDB refuses (TypeMismatch, 14): mingo's own error would be BadValue (2). */
const notArithmetic = (op: string, current: unknown, arg: unknown): boolean =>
  (op === '$inc' || op === '$mul') &&
  (typeof arg !== 'number' || (current !== undefined && typeof current !== 'number'));

/**
 * Integer arithmetic whose result a double cannot hold exactly (beyond 2^53): int64 arithmetic in
 * MongoDB, so it is done in BigInt here too (an int64 of exactly ±2^53 arrives as a plain number).
 */
const inexact = (op: string, current: unknown, arg: unknown): boolean =>
  (op === '$inc' || op === '$mul') &&
  typeof current === 'number' &&
  typeof arg === 'number' &&
  Number.isInteger(current) &&
  Number.isInteger(arg) &&
  !Number.isSafeInteger(op === '$inc' ? current + arg : current * arg);

function extreme(op: '$min' | '$max', current: unknown, arg: unknown): unknown {
  if (current === undefined) return arg;
  const c = compareBson(arg, current);
  return (op === '$min' ? c < 0 : c > 0) ? arg : current;
}

function arithmetic(
  op: string,
  current: unknown,
  arg: unknown,
  path: string,
  doc: Document,
  original: Document,
): unknown {
  const verb = op === '$inc' ? 'increment' : 'multiply';
  if (typeof arg !== 'number' && !isLong(arg))
    throw new CommandError(
      14,
      'TypeMismatch',
      `Cannot ${verb} with non-numeric argument: {${path}: ${EJSON.stringify(arg as Document)}}`,
    );
  // A missing field takes the argument ($inc) or a zero of the argument's type ($mul).
  if (current === undefined) return op === '$inc' ? arg : 0;
  if (typeof current !== 'number' && !isLong(current))
    throw new CommandError(
      14,
      'TypeMismatch',
      `Cannot apply ${op} to a value of non-numeric type. ${shown(doc)} has the field '${path.split('.').pop()}' of non-numeric type ${typeName(current)}`,
    );
  const isDouble = (v: number, stored: boolean) =>
    !Number.isInteger(v) || (stored && numericTypeAt(original, path, v) === 'double');
  if (
    (typeof current === 'number' && isDouble(current, true)) ||
    (typeof arg === 'number' && isDouble(arg, false))
  ) {
    // A double involved: MongoDB computes in doubles.
    const a = isLong(current) ? current.toNumber() : current;
    const b = isLong(arg) ? arg.toNumber() : arg;
    return op === '$inc' ? a + b : a * b;
  }
  const a = isLong(current) ? current.toBigInt() : BigInt(current);
  const b = isLong(arg) ? arg.toBigInt() : BigInt(arg);
  const result = op === '$inc' ? a + b : a * b;
  if (result < INT64_MIN || result > INT64_MAX)
    throw badValue(
      `Failed to apply ${op} operations to current value ((NumberLong)${a}) for document ${shown(doc)}`,
    );
  return int64Value(result);
}
