import { Long, type Document } from 'bson';
import type { UpdateSource } from './pushed.js';
import {
  NUMERIC_ARGS,
  int32Range,
  numericTypeAt,
  setNumericType,
  type NumericType,
} from './types.js';

type Kind = 'int' | 'long' | 'double';
/** MongoDB's arithmetic widens: int32 < int64 < double. */
const WIDTH: Record<Kind, number> = { int: 0, long: 1, double: 2 };
const OPERATORS = ['$inc', '$mul', '$min', '$max'] as const;

const isLong = (v: unknown): v is Long =>
  (v as { _bsontype?: string } | null)?._bsontype === 'Long';

function valueAt(doc: unknown, parts: string[]): unknown {
  let cur = doc;
  for (const part of parts) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Replaces the existing value at `parts` (its parents exist: a value was read there). */
function setAt(doc: Document, parts: string[], value: unknown): void {
  const parent = valueAt(doc, parts.slice(0, -1)) as Record<string, unknown>;
  parent[parts[parts.length - 1]!] = value;
}

const toNumber = (v: unknown): number => (isLong(v) ? v.toNumber() : (v as number));

function argKind(arg: unknown, recorded: NumericType | undefined): Kind | undefined {
  if (recorded) return recorded === 'double' ? 'double' : 'long';
  if (isLong(arg)) return 'long';
  if (typeof arg !== 'number') return undefined;
  return int32Range(arg) ? 'int' : 'double';
}

function storedKind(original: Document, path: string, value: unknown): Kind | undefined {
  if (isLong(value)) return 'long';
  return typeof value === 'number' ? numericTypeAt(original, path, value) : undefined;
}

/**
 * The numeric type of each field an `$inc`, `$mul`, `$min` or `$max` of an existing document
 * wrote, as MongoDB types it: arithmetic takes the wider of the field's and the argument's types
 * (a long plus 1.5 is a double, not a long holding 6) and an int32 that overflows becomes an
 * int64; `$min`/`$max` keep the field's type unless the argument replaced the value. Runs after
 * the other type bookkeeping of an update, and overrides it for these fields.
 */
export function settleOperatorTypes(
  original: Document,
  updated: Document,
  spec: unknown,
  source: UpdateSource | undefined,
): void {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return;
  const recorded = (
    source?.command as Record<symbol, Map<string, NumericType> | undefined> | undefined
  )?.[NUMERIC_ARGS];
  for (const op of OPERATORS) {
    const args = (spec as Document)[op] as Document | undefined;
    if (!args || typeof args !== 'object') continue;
    for (const path in args) {
      if (path.includes('$')) continue;
      const parts = path.split('.');
      const now = valueAt(updated, parts);
      if (typeof now !== 'number' && !isLong(now)) continue;
      const arg = argKind(args[path], recorded?.get(`${source!.path}.${op}.${path}`));
      if (!arg) continue;
      const old = valueAt(original, parts);
      const field = storedKind(original, path, old);
      let kind: Kind;
      if (op === '$min' || op === '$max') kind = Object.is(now, old) && field ? field : arg;
      else {
        kind = field === undefined || WIDTH[arg] > WIDTH[field] ? arg : field;
        if (kind === 'int' && typeof now === 'number' && !int32Range(now)) kind = 'long';
      }
      if (kind === 'double' && field !== undefined && (op === '$inc' || op === '$mul')) {
        // MongoDB converts both operands to doubles first: an int64 beyond 2^53 plus an integral
        // double is rounded before the addition, not after an exact one.
        const a = toNumber(old);
        const b = toNumber(args[path]);
        setAt(updated, parts, op === '$inc' ? a + b : a * b);
        setNumericType(updated, path, 'double');
        continue;
      }
      // Otherwise an int64 beyond 2^53 carries its own type.
      if (isLong(now)) continue;
      setNumericType(
        updated,
        path,
        kind === 'int' ? undefined : kind === 'double' ? 'double' : Long.fromNumber(now),
      );
    }
  }
}
