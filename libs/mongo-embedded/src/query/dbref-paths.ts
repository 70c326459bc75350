import type { Document } from 'bson';
import { ALIAS_MARK, isPlainDoc } from '../safety/unsafe-keys.js';

/**
 * A DBRef is the embedded document `{$ref, $id, $db}`, and MongoDB queries its fields as such
 * (`{'members.$id': oid}`, `{members: {$elemMatch: {$id: oid}}}`). The decoder presents it as a
 * class, and mingo reads `$`-names as operators, so filters naming these fields run against
 * documents whose DBRefs are plain documents, with the names aliased on both sides.
 */
const DBREF_FIELDS = new Set(['$ref', '$id', '$db']);

const isDbRef = (
  v: unknown,
): v is { collection: string; oid: unknown; db?: string; fields?: Document } =>
  !!v && typeof v === 'object' && (v as { _bsontype?: string })._bsontype === 'DBRef';

const aliasSegment = (seg: string): string => (DBREF_FIELDS.has(seg) ? ALIAS_MARK + seg : seg);

function namesDbRefField(key: string): boolean {
  if (DBREF_FIELDS.has(key)) return true;
  return key.includes('.$') && key.split('.').some((seg) => DBREF_FIELDS.has(seg));
}

const isElemMatchOfRef = (key: string, value: unknown): boolean =>
  key === '$elemMatch' && isDbRef(value);

export function mentionsDbRefField(filter: unknown): boolean {
  if (Array.isArray(filter)) return filter.some(mentionsDbRefField);
  if (!isPlainDoc(filter)) return false;
  for (const k of Object.keys(filter))
    if (k === '$jsonSchema')
      continue; // a schema's keywords (`$ref`) are not field names
    else if (namesDbRefField(k) || isElemMatchOfRef(k, filter[k]) || mentionsDbRefField(filter[k]))
      return true;
  return false;
}

export function aliasDbRefFilter<T>(filter: T): T {
  if (Array.isArray(filter)) return filter.map(aliasDbRefFilter) as T;
  if (!isPlainDoc(filter)) return filter;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(filter)) {
    if (k === '$jsonSchema') {
      out[k] = filter[k];
      continue;
    }
    const key = namesDbRefField(k) ? k.split('.').map(aliasSegment).join('.') : k;
    // The decoder reads `{$elemMatch: {$ref, $id}}` as a DBRef: it is a condition on both fields.
    out[key] = isElemMatchOfRef(k, filter[k])
      ? dbRefsAsFields(filter[k])
      : aliasDbRefFilter(filter[k]);
  }
  return out as T;
}

/** A copy of `doc` in which every DBRef is a plain document with aliased field names. */
export function dbRefsAsFields<T>(v: T): T {
  if (isDbRef(v)) {
    const out: Record<string, unknown> = {
      [ALIAS_MARK + '$ref']: v.collection,
      [ALIAS_MARK + '$id']: v.oid,
    };
    if (v.db) out[ALIAS_MARK + '$db'] = v.db;
    return Object.assign(out, v.fields) as T;
  }
  if (Array.isArray(v)) return v.map(dbRefsAsFields) as T;
  if (!isPlainDoc(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v))
    Object.defineProperty(out, k, {
      value: dbRefsAsFields(v[k]),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  return out as T;
}
