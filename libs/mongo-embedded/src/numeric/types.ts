import { Double, Long, type Document } from 'bson';
import { i32, valueSize } from '../storage/raw-bson.js';
import { carryRawStrings, rememberRawStrings, withRawStrings } from '../storage/raw-strings.js';

/**
 * BSON numeric types the stored (JavaScript number) form cannot tell apart: an int64 (kept as the
 * exact Long, which may exceed 2^53) or a double with an integral value in int32 range (which a
 * plain number would send back as int32). Every other number round-trips by itself: the
 * serialiser writes integral int32-range numbers as int32 and everything else as double.
 */
export type NumericType = Long | 'double';

/** Per stored document: dotted path (array indexes included) → its numeric BSON type. */
const TYPES = new WeakMap<Document, Map<string, NumericType>>();

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
export const int32Range = (v: number) => Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX;

function scan(
  b: Uint8Array,
  start: number,
  prefix: string,
  out: Map<string, NumericType>,
): boolean {
  const end = start + i32(b, start) - 1;
  let p = start + 4;
  while (p < end) {
    const type = b[p++]!;
    const keyEnd = b.indexOf(0, p);
    if (keyEnd < 0 || keyEnd >= end) return false;
    const key = Buffer.from(b.buffer, b.byteOffset + p, keyEnd - p).toString('utf8');
    p = keyEnd + 1;
    const size = valueSize(b, type, p);
    if (size < 0 || p + size > end) return false;
    const path = prefix ? `${prefix}.${key}` : key;
    if (type === 0x12) out.set(path, Long.fromBits(i32(b, p), i32(b, p + 4)));
    else if (type === 0x01) {
      const v = Buffer.from(b.buffer, b.byteOffset + p, 8).readDoubleLE(0);
      if (int32Range(v)) out.set(path, 'double');
    } else if ((type === 0x03 || type === 0x04) && !scan(b, p, path, out)) return false;
    p += size;
  }
  return true;
}

/**
 * Whether the document holds any int64 or integral int32-range double, without decoding keys or
 * allocating: this runs for every inserted document, and almost none has one.
 */
function hasCandidates(b: Uint8Array, start: number): boolean {
  const end = start + i32(b, start) - 1;
  let p = start + 4;
  while (p < end) {
    const type = b[p++]!;
    const keyEnd = b.indexOf(0, p);
    if (keyEnd < 0 || keyEnd >= end) return false;
    p = keyEnd + 1;
    const size = valueSize(b, type, p);
    if (size < 0 || p + size > end) return false;
    if (type === 0x12) return true;
    if (type === 0x01) {
      DOUBLE_BYTES.set(b.subarray(p, p + 8));
      if (int32Range(DOUBLE_VIEW[0]!)) return true;
    } else if ((type === 0x03 || type === 0x04) && hasCandidates(b, p)) return true;
    p += size;
  }
  return false;
}
const DOUBLE_VIEW = new Float64Array(1);
const DOUBLE_BYTES = new Uint8Array(DOUBLE_VIEW.buffer);

/** The int64 and integral-double values of a BSON document, or undefined when it has none. */
export function scanNumericTypes(raw: Uint8Array): Map<string, NumericType> | undefined {
  if (raw.length < 5 || !hasCandidates(raw, 0)) return undefined;
  const out = new Map<string, NumericType>();
  if (!scan(raw, 0, '', out) || out.size === 0) return undefined;
  return out;
}

/** Records the numeric types `doc` was decoded from (its exact BSON bytes). */
export function rememberNumericTypes(doc: Document, raw: Uint8Array, under = ''): void {
  // Strings that are not valid UTF-8 are kept on the side the same way (storage/raw-strings.ts).
  rememberRawStrings(doc, raw, under);
  const found = scanNumericTypes(raw);
  if (!found) return;
  if (!under) return void TYPES.set(doc, found);
  const strip = `${under}.`;
  const mine = new Map<string, NumericType>();
  for (const [path, t] of found) if (path.startsWith(strip)) mine.set(path.slice(strip.length), t);
  if (mine.size) TYPES.set(doc, mine);
}

function valueAt(doc: unknown, parts: string[]): unknown {
  let cur = doc;
  for (const part of parts) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

const asType = (t: NumericType, value: number): Long | Double =>
  t === 'double' ? new Double(value) : t.toNumber() === value ? t : Long.fromNumber(value);

/**
 * An updated document keeps the numeric types of the fields that are still numbers, as MongoDB
 * does (`$inc` on a long stays a long); a Long whose value did not change stays exact.
 */
export function carryNumericTypes(from: Document, to: Document): void {
  carryRawStrings(from, to);
  const types = TYPES.get(from);
  if (!types) return;
  const kept = new Map<string, NumericType>();
  for (const [path, t] of types) {
    const v = valueAt(to, path.split('.'));
    if (typeof v !== 'number') continue;
    kept.set(path, t === 'double' ? t : (asType(t, v) as Long));
  }
  if (kept.size) TYPES.set(to, kept);
}

/** A copy made to compute on (the same fields at the same paths) answers with `from`'s types. */
export function shareNumericTypes(from: Document, to: Document): void {
  carryRawStrings(from, to);
  const types = TYPES.get(from);
  if (types) TYPES.set(to, types);
}

/**
 * `to`, computed from `from` by an aggregation stage or a pipeline update, keeps the numeric types
 * of the fields that still hold the very same number; a field the pipeline computed comes back by
 * value (what it would be is the pipeline's arithmetic, which mingo does in plain numbers).
 */
export function carryUnchangedNumericTypes(from: Document, to: Document): void {
  carryRawStrings(from, to);
  const types = TYPES.get(from);
  if (!types) return;
  let kept: Map<string, NumericType> | undefined;
  for (const [path, t] of types) {
    const parts = path.split('.');
    const v = valueAt(to, parts);
    if (typeof v === 'number' && Object.is(v, valueAt(from, parts)))
      (kept ??= new Map()).set(path, t);
  }
  if (kept) TYPES.set(to, kept);
}

function copyWith(node: unknown, parts: string[], i: number, t: NumericType): unknown {
  if (node === null || typeof node !== 'object') return node;
  const copy = (Array.isArray(node) ? [...node] : { ...node }) as Record<string, unknown>;
  const key = parts[i]!;
  const v = copy[key];
  if (i === parts.length - 1) {
    if (typeof v === 'number') copy[key] = asType(t, v);
  } else copy[key] = copyWith(v, parts, i + 1, t);
  return copy;
}

/** Records (or, with `undefined`, forgets) the numeric type of the number at `path` in `doc`. */
export function setNumericType(doc: Document, path: string, t: NumericType | undefined): void {
  let types = TYPES.get(doc);
  if (t === undefined) {
    types?.delete(path);
    return;
  }
  if (!types) TYPES.set(doc, (types = new Map()));
  types.set(path, t);
}

/** `doc` as it must be sent or journaled: the recorded int64 / double values wrapped again. */
export function typedForm(doc: Document): Document {
  const types = TYPES.get(doc);
  if (!types) return withRawStrings(doc);
  let out: Document = withRawStrings(doc);
  for (const [path, t] of types) out = copyWith(out, path.split('.'), 0, t) as Document;
  return out;
}

/** The BSON numeric type of the number at `path` (exact, array indexes included) in a stored document. */
export function numericTypeAt(
  doc: Document,
  path: string,
  value: number,
): 'int' | 'long' | 'double' {
  const t = TYPES.get(doc)?.get(path);
  if (t === 'double') return 'double';
  if (t) return 'long';
  return int32Range(value) ? 'int' : 'double';
}

/**
 * On `update` and `findAndModify` commands: the int64 / integral-double values of the command, by
 * dotted path in the command (`updates.0.u.$set.n`), read from its bytes. Not enumerable.
 */
export const NUMERIC_ARGS: unique symbol = Symbol('numericArgs');

export function attachNumericArgs(command: Document, raw: Uint8Array, prefix = ''): void {
  const found = scanNumericTypes(raw);
  if (!found) return;
  const holder = command as Record<symbol, Map<string, NumericType> | undefined>;
  let all = holder[NUMERIC_ARGS];
  if (!all) {
    all = new Map();
    Object.defineProperty(command, NUMERIC_ARGS, {
      value: all,
      enumerable: false,
      configurable: true,
    });
  }
  for (const [path, t] of found) all.set(prefix ? `${prefix}.${path}` : path, t);
}

// Update operators whose argument becomes the field's value (or, for arithmetic, its type).
const VALUE_OPERATORS = ['$set', '$setOnInsert', '$inc', '$mul', '$min', '$max'];

/**
 * The document paths an update statement gives an int64 / integral-double value: `$set`-like
 * operator arguments, a replacement's fields and (for upserts) the filter's equalities.
 */
export function numericArgsFor(
  command: Document,
  update: string,
  query?: string,
): Map<string, NumericType> | undefined {
  const all = (command as Record<symbol, Map<string, NumericType> | undefined>)[NUMERIC_ARGS];
  if (!all) return undefined;
  const out = new Map<string, NumericType>();
  const from = (prefix: string, path: string, t: NumericType) => {
    const rest = path.slice(prefix.length + 1);
    const op = VALUE_OPERATORS.find((o) => rest.startsWith(`${o}.`));
    if (op) out.set(rest.slice(op.length + 1), t);
    else if (!rest.startsWith('$')) out.set(rest, t);
  };
  for (const [path, t] of all) {
    if (path.startsWith(`${update}.`)) from(update, path, t);
    else if (query && path.startsWith(`${query}.`) && !path.includes('$'))
      out.set(path.slice(query.length + 1), t);
  }
  return out.size ? out : undefined;
}

/** Adds the numeric types an update wrote (see `numericArgsFor`) to the updated document. */
export function addNumericTypes(doc: Document, types: Map<string, NumericType> | undefined): void {
  if (!types) return;
  const merged = new Map(TYPES.get(doc));
  for (const [path, t] of types) {
    if (path.includes('$')) continue;
    const v = valueAt(doc, path.split('.'));
    if (typeof v === 'number') merged.set(path, t === 'double' ? t : (asType(t, v) as Long));
  }
  if (merged.size) TYPES.set(doc, merged);
}

/**
 * `$set` of a plain number replaces the field's type too (a long set to 5 is an int32 again); the
 * types the arguments carried are added back afterwards by `addNumericTypes`.
 */
export function forgetSetNumbers(doc: Document, spec: unknown): void {
  const types = TYPES.get(doc);
  if (!types || !spec || typeof spec !== 'object' || Array.isArray(spec)) return;
  for (const op of ['$set', '$setOnInsert'] as const) {
    const args = (spec as Record<string, unknown>)[op];
    if (!args || typeof args !== 'object') continue;
    for (const [path, v] of Object.entries(args)) if (typeof v === 'number') types.delete(path);
  }
}

/**
 * Elements inserted into the array at `field` before index `from` move the later ones up by `by`:
 * their recorded types (keyed by index) move with them. `by` null: the elements were reordered
 * untraceably (`$push` with `$sort`/`$slice`), so their types from `from` on are forgotten.
 */
export function shiftArrayTypes(
  before: Document,
  after: Document,
  field: string,
  from: number,
  by: number | null,
): void {
  const now = TYPES.get(after);
  if (!now || by === 0) return;
  const prefix = `${field}.`;
  const indexOf = (path: string) => {
    if (!path.startsWith(prefix)) return -1;
    const i = Number(path.slice(prefix.length).split('.', 1)[0]);
    return Number.isInteger(i) ? i : -1;
  };
  for (const path of [...now.keys()]) if (indexOf(path) >= from) now.delete(path);
  const old = TYPES.get(before);
  if (!old || by === null) return;
  for (const [path, t] of old) {
    const i = indexOf(path);
    if (i < from) continue;
    const rest = path.slice(prefix.length + String(i).length);
    now.set(`${prefix}${i + by}${rest}`, t);
  }
}
