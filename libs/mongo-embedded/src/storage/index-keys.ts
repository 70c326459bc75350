import type { Document } from 'bson';
import { encodeKey, keyPart, pathValues } from './values.js';

/** One combination of an index's field values and the string that keys it. */
export interface CompoundKey {
  key: string;
  values: unknown[];
}

/**
 * Every combination of the fields' values (multikey), as keys with the values. A compound key is
 * the concatenation of each field's `keyPart` (length-prefixed, so string contents cannot make two
 * different combinations collide); single-field indexes key by the bare encoded value. This is the
 * general form; `IndexStore.load` builds the same keys without allocating for single-valued
 * documents.
 */
export function compoundKeys(fields: string[], doc: Document): CompoundKey[] {
  if (fields.length === 1)
    return dedupe(pathValues(doc, fields[0]!)).map((v) => ({ key: encodeKey(v), values: [v] }));
  let combos: CompoundKey[] = [{ key: '', values: [] }];
  for (const f of fields) {
    const vals = dedupe(pathValues(doc, f));
    combos = combos.flatMap((c) =>
      vals.map((v) => ({ key: c.key + keyPart(encodeKey(v)), values: [...c.values, v] })),
    );
  }
  return combos;
}

/** The compound key of one value per field, in key order: the same key `compoundKeys` builds. */
export function compoundKeyOf(values: unknown[]): string {
  if (values.length === 1) return encodeKey(values[0]);
  let key = '';
  for (const v of values) key += keyPart(encodeKey(v));
  return key;
}

/**
 * An entry (key values, then a natural position and an id to be filled in) sized exactly and
 * allocated from an array literal: V8 tracks literal allocation sites and, as these entries live as
 * long as their documents, allocates them straight in the old generation instead of copying each
 * one out of the young generation (`new Array(n)` has no allocation site to learn from).
 */
export function entryOf(v: unknown[], n: number): unknown[] {
  switch (n) {
    case 1:
      return [v[0], 0, ''];
    case 2:
      return [v[0], v[1], 0, ''];
    case 3:
      return [v[0], v[1], v[2], 0, ''];
    case 4:
      return [v[0], v[1], v[2], v[3], 0, ''];
    case 5:
      return [v[0], v[1], v[2], v[3], v[4], 0, ''];
    default: {
      const entry = v.slice(0, n);
      entry.push(0, '');
      return entry;
    }
  }
}

export function dedupe(values: unknown[]): unknown[] {
  if (values.length < 2) return values;
  const seen = new Map<string, unknown>();
  for (const v of values) seen.set(encodeKey(v), v);
  return [...seen.values()];
}
