import type { Document } from 'bson';
import { isPlainDoc, isUnsafeKey, ownField } from '../safety/unsafe-keys.js';
import { cloneDoc, encodeKey, setPath } from '../storage/values.js';

const isBinary = (v: unknown): boolean =>
  !!v && typeof v === 'object' && (v as { _bsontype?: string })._bsontype === 'Binary';

const containsBinary = (v: unknown): boolean =>
  isBinary(v) ||
  (Array.isArray(v)
    ? v.some(containsBinary)
    : isPlainDoc(v) && Object.values(v).some(containsBinary));

function valueAt(doc: Document, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = isUnsafeKey(part) ? ownField(cur, part) : (cur as Document)[part];
  }
  return cur;
}

/**
 * `$set` of values holding BinData, applied here: mingo's equality prints a Binary's bytes and
 * ignores its subtype, so setting the same bytes with another subtype (a UUID over generic
 * bytes) was a silent no-op. MongoDB compares subtypes. Returns the arguments left for mingo
 * and whether this changed the document; positional paths stay mingo's.
 */
export function setBinaries(doc: Document, args: Document): { rest: Document; modified: boolean } {
  let rest: Document | undefined;
  let modified = false;
  for (const [path, value] of Object.entries(args)) {
    if (path.includes('$') || !containsBinary(value)) continue;
    rest ??= { ...args };
    delete rest[path];
    if (encodeKey(valueAt(doc, path)) === encodeKey(value)) continue;
    setPath(doc, path, cloneDoc(value));
    modified = true;
  }
  return { rest: rest ?? args, modified };
}
