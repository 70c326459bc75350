/**
 * Field names that JavaScript objects resolve through their prototype. MongoDB stores them as
 * ordinary fields; in a JavaScript object `o['__proto__']` (absent) is the prototype, and
 * `o.constructor.prototype` is `Object.prototype`, so a path walked with plain property access
 * could read or write the prototype of every object in the process.
 */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

/** Prefix of an aliased key. BSON keys are C strings, so no client key can contain it. */
export const ALIAS_MARK = '\u0000';

export const isUnsafeKey = (key: string): boolean =>
  (key.length === 9 || key.length === 11) && UNSAFE.has(key);

/** Does a key, a dotted path or a `$`-path string contain an unsafe name anywhere? */
const hasUnsafeWord = (s: string): boolean =>
  s.length >= 9 &&
  (s.includes('__proto__') || s.includes('constructor') || s.includes('prototype'));

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** A field of `obj` only if it is its own: never what its prototype chain answers. */
export function ownField(obj: object, key: string): unknown {
  return hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** Sets `key` as an own data property (`obj['__proto__'] = v` would replace the prototype). */
export function defineField(obj: object, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  else (obj as Record<string, unknown>)[key] = value;
}

/** A plain document (not an array, Date, RegExp, Buffer or BSON value). */
export function isPlainDoc(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && !hasOwn(v, '_bsontype');
}

/** Plain documents and arrays to descend into (BSON values and Dates hold no client keys). */
const isContainer = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !(v instanceof Date) && !('_bsontype' in v);

// Both scans run on every update, filter and pipeline: `for...in` and index loops, no
// allocation (documents and specs have no enumerable inherited keys).

/** True when a filter, update, pipeline or projection names an unsafe key anywhere. */
export function mentionsUnsafe(v: unknown): boolean {
  if (typeof v === 'string') return hasUnsafeWord(v);
  if (!isContainer(v)) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (mentionsUnsafe(v[i])) return true;
    return false;
  }
  for (const k in v) if (hasUnsafeWord(k) || mentionsUnsafe(v[k])) return true;
  return false;
}

/** True when a document holds an unsafe key at any depth. */
export function hasUnsafeKeys(v: unknown): boolean {
  if (!isContainer(v)) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (hasUnsafeKeys(v[i])) return true;
    return false;
  }
  for (const k in v) if (isUnsafeKey(k) || hasUnsafeKeys(v[k])) return true;
  return false;
}

let renamed = 0;

/** How many keys `aliasDoc` has renamed so far: compare before and after to know whether it did. */
export const aliasedKeyCount = (): number => renamed;

const aliasKey = (k: string): string => (isUnsafeKey(k) ? (renamed++, ALIAS_MARK + k) : k);

/** Aliases every unsafe segment of a dotted path (a `$`-path keeps its leading `$` or `$$var`). */
export function aliasPath(path: string): string {
  if (!hasUnsafeWord(path)) return path;
  return path
    .split('.')
    .map((seg, i) => {
      if (i > 0 || !seg.startsWith('$')) return aliasKey(seg);
      const bare = seg.replace(/^\$+/, '');
      return seg.slice(0, seg.length - bare.length) + aliasKey(bare);
    })
    .join('.');
}

/**
 * Deep copy of a stored document with unsafe keys renamed to their aliases, so mingo, which walks
 * paths with plain property access, only ever meets ordinary keys. The copy is what an update or a
 * pipeline works on; `unaliasDoc` turns its result back into fields.
 */
export function aliasDoc<T>(v: T): T {
  if (Array.isArray(v)) return v.map(aliasDoc) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (!isPlainDoc(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[aliasKey(k)] = aliasDoc(v[k]);
  return out as T;
}

/** Inverse of `aliasDoc`: aliased keys become own fields again, in the same order. */
export function unaliasDoc<T>(v: T): T {
  if (Array.isArray(v)) return v.map(unaliasDoc) as T;
  if (!isPlainDoc(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v))
    defineField(out, k.startsWith(ALIAS_MARK) ? k.slice(1) : k, unaliasDoc(v[k]));
  return out as T;
}

/**
 * Aggregation outputs: `$objectToArray` turns an aliased key into a string value, so a string that
 * is exactly an alias is the field name it stands for.
 */
export function unaliasOutput<T>(v: T): T {
  if (typeof v === 'string')
    return (v.startsWith(ALIAS_MARK) && isUnsafeKey(v.slice(1)) ? v.slice(1) : v) as T;
  if (Array.isArray(v)) return v.map(unaliasOutput) as T;
  if (!isPlainDoc(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v))
    defineField(out, k.startsWith(ALIAS_MARK) ? k.slice(1) : k, unaliasOutput(v[k]));
  return out as T;
}

/** Error text produced in alias space names the fields as the client wrote them. */
export const unaliasText = (text: string): string => text.split(ALIAS_MARK).join('');

type Mode = 'query' | 'update' | 'pipeline';

// Stage options whose string values are field paths without a leading `$`.
const PATH_OPTIONS = new Set([
  'localField',
  'foreignField',
  'as',
  'includeArrayIndex',
  'connectFromField',
  'connectToField',
  'depthField',
]);
const FIELD_NAME_OPERATORS = new Set(['$getField', '$setField', '$unsetField']);

/**
 * The same spec with unsafe names aliased wherever they name a field: object keys (fields and
 * paths, also inside values, which are stored as they are), `$`-paths in aggregation expressions,
 * `$rename` targets, the field of `$getField`/`$setField`/`$unsetField` and path-valued stage
 * options. Strings that are data (query values, `$literal`) are left alone.
 */
export function aliasSpec<T>(v: T, mode: Mode): T {
  if (typeof v === 'string')
    return (mode === 'pipeline' && v.startsWith('$') ? aliasPath(v) : v) as T;
  if (Array.isArray(v)) return v.map((el) => aliasSpec(el, mode)) as T;
  if (!isPlainDoc(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[aliasPath(k)] = aliasValue(k, v[k], mode);
  return out as T;
}

function aliasValue(key: string, value: unknown, mode: Mode): unknown {
  if (key === '$expr' || key === '$replaceWith') return aliasSpec(value, 'pipeline');
  if (key === '$match' || key === '$literal') return aliasSpec(value, 'query');
  if (mode === 'update' && key === '$rename' && isPlainDoc(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) {
      const to = value[k];
      out[aliasPath(k)] = typeof to === 'string' ? aliasPath(to) : to;
    }
    return out;
  }
  if (mode === 'pipeline') {
    if (
      typeof value === 'string' &&
      (PATH_OPTIONS.has(key) || key === '$count' || key === '$unset')
    )
      return aliasPath(value);
    if (key === '$unset' && Array.isArray(value))
      return value.map((p) => (typeof p === 'string' ? aliasPath(p) : p));
    if (FIELD_NAME_OPERATORS.has(key)) {
      if (typeof value === 'string') return aliasKey(value);
      if (isPlainDoc(value) && typeof value.field === 'string')
        return { ...aliasSpec(value, mode), field: aliasKey(value.field) };
    }
  }
  return aliasSpec(value, mode);
}

export type { Mode as AliasMode };
