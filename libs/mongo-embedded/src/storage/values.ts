import type { Document } from 'bson';

type Bsonish = { _bsontype?: string; toHexString?: () => string; toString(): string };

/**
 * Canonical string for a value so equal BSON values (e.g. two ObjectId instances, 1 and 1.0)
 * collide in Maps. Type tags keep different BSON types apart, as MongoDB does for equality.
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
  if (Array.isArray(v)) return `a[${v.map(encodeKey).join(',')}]`;
  const b = v as Bsonish;
  if (b._bsontype === 'ObjectId') return `o${b.toHexString!()}`;
  if (b._bsontype === 'Long' || b._bsontype === 'Int32' || b._bsontype === 'Double')
    return `n${b.toString()}`;
  if (b._bsontype) return `${b._bsontype}:${b.toString()}`;
  const obj = v as Record<string, unknown>;
  return `{${Object.keys(obj)
    .map((k) => `${JSON.stringify(k)}:${encodeKey(obj[k])}`)
    .join(',')}}`;
}

/** Values reachable at a dotted path, descending through arrays like MongoDB's multikey semantics. */
export function pathValues(doc: unknown, path: string): unknown[] {
  const parts = path.split('.');
  const out: unknown[] = [];
  const walk = (cur: unknown, i: number): void => {
    if (i === parts.length) {
      if (Array.isArray(cur)) {
        if (cur.length === 0) out.push(undefined);
        else out.push(...cur);
      } else out.push(cur);
      return;
    }
    if (Array.isArray(cur)) {
      const idx = Number(parts[i]);
      if (Number.isInteger(idx) && /^\d+$/.test(parts[i]!)) return walk(cur[idx], i + 1);
      if (cur.length === 0) return walk(undefined, parts.length);
      for (const el of cur) walk(el, i);
      return;
    }
    if (cur === null || typeof cur !== 'object' || cur instanceof Date)
      return walk(undefined, parts.length);
    walk((cur as Record<string, unknown>)[parts[i]!], i + 1);
  };
  walk(doc, 0);
  return out;
}

export function hasPath(doc: Document, path: string): boolean {
  return pathValues(doc, path).some((v) => v !== undefined);
}

/** Deep copy of plain objects/arrays; BSON value classes are immutable in practice and shared. */
export function cloneDoc<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneDoc) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (
    v &&
    typeof v === 'object' &&
    !(v as Bsonish)._bsontype &&
    Object.getPrototypeOf(v) === Object.prototype
  ) {
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) out[k] = cloneDoc(val);
    return out as T;
  }
  return v;
}

export function setPath(doc: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur: Record<string, unknown> = doc;
  for (const p of parts.slice(0, -1)) {
    if (cur[p] === null || typeof cur[p] !== 'object') cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]!] = value;
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
