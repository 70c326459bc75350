import { EJSON, type Binary, type Document } from 'bson';
import { decimalKey } from '../numeric/decimal.js';
import { defineField, isPlainDoc, isUnsafeKey, ownField } from '../safety/unsafe-keys.js';

type Bsonish = { _bsontype?: string; toHexString?: () => string; toString(): string };

/**
 * Canonical string for a value so equal BSON values (e.g. two ObjectId instances, 1 and 1.0)
 * collide in Maps. Type tags keep different BSON types apart, as MongoDB does for equality.
 *
 * Different values never share a key: scalars are a type tag plus an injective text, and the parts
 * of arrays, objects and compound index keys are length-prefixed (`keyPart`), so no string content
 * (`,`, `]`, `|`, ...) can be mistaken for a boundary. Keys are only used as Map keys: they are never
 * ordered (range scans use `rangeKey`) nor persisted (indexes are rebuilt from documents on load).
 */
export function encodeKey(v: unknown): string {
  if (v === undefined || v === null) return 'z';
  switch (typeof v) {
    case 'number':
      return `n${Object.is(v, -0) ? 0 : v}`;
    case 'string':
      return `s${v}`;
    case 'boolean':
      return v ? 'bt' : 'bf';
    case 'bigint':
      return `n${v}`;
    default:
      break;
  }
  if (v instanceof Date) return `d${v.getTime()}`;
  if (v instanceof RegExp) return `r${v.source}/${v.flags}`;
  if (Array.isArray(v)) {
    let out = 'a[';
    for (const el of v) out += keyPart(encodeKey(el));
    return `${out}]`;
  }
  const b = v as Bsonish;
  if (b._bsontype === 'ObjectId') return `o${b.toHexString!()}`;
  if (b._bsontype === 'Long' || b._bsontype === 'Int32' || b._bsontype === 'Double')
    return `n${b.toString()}`;
  if (b._bsontype === 'Decimal128') return decimalKey(v);
  // Binary's default toString() decodes the bytes as UTF-8 (invalid bytes all become U+FFFD) and
  // drops the subtype; BSONRegExp, Code and DBRef print "[object Object]". Canonical EJSON is exact.
  if (b._bsontype === 'Binary') {
    const bin = v as Binary;
    return `Binary:${bin.sub_type}:${bin.toString('base64')}`;
  }
  if (b._bsontype) return `${b._bsontype}:${EJSON.stringify(v as Document, { relaxed: false })}`;
  const obj = v as Record<string, unknown>;
  let out = '{';
  for (const k of Object.keys(obj)) out += `${JSON.stringify(k)}:${keyPart(encodeKey(obj[k]))}`;
  return `${out}}`;
}

/**
 * One part of a composite key (array element, object field value, compound index field): its
 * length, `:`, then the encoded value, so parts can be concatenated without any separator being
 * ambiguous.
 */
export function keyPart(encoded: string): string {
  return `${encoded.length}:${encoded}`;
}

/** Values reachable at a dotted path, descending through arrays like MongoDB's multikey semantics. */
export function pathValues(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  walkPath(doc, path.includes('.') ? path.split('.') : [path], 0, out);
  return out;
}

// A module-level function rather than a closure per call: this runs for every index key of every write.
function walkPath(cur: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    if (Array.isArray(cur)) {
      if (cur.length === 0) out.push(undefined);
      else for (const el of cur) out.push(el);
    } else out.push(cur);
    return;
  }
  if (Array.isArray(cur)) {
    const idx = Number(parts[i]);
    if (Number.isInteger(idx) && /^\d+$/.test(parts[i]!))
      return walkPath(cur[idx], parts, i + 1, out);
    if (cur.length === 0) return walkPath(undefined, parts, parts.length, out);
    for (const el of cur) walkPath(el, parts, i, out);
    return;
  }
  if (cur === null || typeof cur !== 'object' || cur instanceof Date)
    return walkPath(undefined, parts, parts.length, out);
  walkPath(fieldOf(cur, parts[i]!), parts, i + 1, out);
}

/** A field's value; `__proto__`, `constructor` and `prototype` only as the object's own fields. */
const fieldOf = (cur: object, key: string): unknown =>
  isUnsafeKey(key) ? ownField(cur, key) : (cur as Record<string, unknown>)[key];

/** Returned by `singlePathValue` when the path meets an array: use `pathValues` for the values. */
export const MULTI: unique symbol = Symbol('multikey');

/**
 * The one value at a pre-split path, without allocating, when no array lies on the way (the usual
 * case); `MULTI` otherwise. Same semantics as `pathValues`, which returns `[value]` in that case.
 */
export function singlePathValue(doc: unknown, parts: string[]): unknown {
  let cur = doc;
  for (let i = 0; i < parts.length; i++) {
    if (Array.isArray(cur)) return MULTI;
    if (cur === null || typeof cur !== 'object' || cur instanceof Date) return undefined;
    cur = fieldOf(cur, parts[i]!);
  }
  return Array.isArray(cur) ? MULTI : cur;
}

export function hasPath(doc: Document, path: string): boolean {
  for (const v of pathValues(doc, path)) if (v !== undefined) return true;
  return false;
}

/** Deep copy of plain objects/arrays; BSON value classes are immutable in practice and shared. */
export function cloneDoc<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneDoc) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (isPlainDoc(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) defineField(out, k, cloneDoc(v[k]));
    return out as T;
  }
  return v;
}

/** Sets a dotted path, creating subdocuments; every step is an own field, never a prototype. */
export function setPath(doc: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur: Record<string, unknown> = doc;
  for (const p of parts.slice(0, -1)) {
    let next = ownField(cur, p);
    if (next === null || typeof next !== 'object') defineField(cur, p, (next = {}));
    cur = next as Record<string, unknown>;
  }
  defineField(cur, parts[parts.length - 1]!, value);
}

export function isOperatorObject(v: unknown): v is Record<string, unknown> {
  if (
    !v ||
    typeof v !== 'object' ||
    Array.isArray(v) ||
    (v as Bsonish)._bsontype ||
    v instanceof Date
  )
    return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** Orders index keys within one BSON type bracket for range scans. */
export function rangeKey(v: unknown): { t: 'n' | 's' | 'd'; k: number | string } | undefined {
  if (typeof v === 'number') return { t: 'n', k: v };
  if (typeof v === 'string') return { t: 's', k: v };
  if (v instanceof Date) return { t: 'd', k: v.getTime() };
  return undefined;
}
