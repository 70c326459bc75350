import type { Document } from 'bson';
import { DuplicateKeyError } from '../errors.js';
import { defineField } from '../safety/unsafe-keys.js';
import { holds, withId, withoutId, type Ids } from './id-postings.js';
import { compoundKeys } from './index-keys.js';

/**
 * The uniqueness map of a unique or prepareUnique index: compound key → its documents. A unique
 * index holds one id a key; under prepareUnique the duplicates already there are kept, so a key
 * may list several.
 */
export class UniqueKeys {
  private readonly byCompound = new Map<string, Ids>();

  /** `shared`: prepareUnique, not yet unique (each key lists its documents). */
  constructor(private readonly shared: boolean) {}

  /**
   * Whether documents other than `id` hold `key`. A key is refused only then: an update that
   * keeps its key passes, even where prepareUnique left duplicates.
   */
  takenByOther(key: string, id: string): boolean {
    const owners = this.byCompound.get(key);
    return owners !== undefined && !holds(owners, id);
  }

  own(key: string, id: string): void {
    this.byCompound.set(key, this.shared ? withId(this.byCompound.get(key), id) : id);
  }

  release(key: string, id: string): void {
    const ids = this.byCompound.get(key);
    if (ids === undefined) return;
    const left = withoutId(ids, id);
    if (left === undefined) this.byCompound.delete(key);
    else if (typeof left !== 'string' && left.size === 1)
      this.byCompound.set(key, left.values().next().value!); // no longer a duplicate
    else if (left !== ids) this.byCompound.set(key, left);
  }

  /** The document holding `key`, where exactly one does. */
  owner(key: string): string | undefined {
    const ids = this.byCompound.get(key);
    return typeof ids === 'string' ? ids : undefined;
  }

  /** prepareUnique: the groups of documents sharing a key (what a conversion to unique refuses). */
  duplicateGroups(): string[][] {
    const out: string[][] = [];
    for (const ids of this.byCompound.values()) if (typeof ids !== 'string') out.push([...ids]);
    return out;
  }
}

/** MongoDB's E11000 for `doc`, whose compound key `key` another document holds. */
export function duplicateKeyError(
  ns: string,
  name: string,
  pattern: Record<string, number | string>,
  fields: string[],
  doc: Document,
  key: string,
): DuplicateKeyError {
  const combo = compoundKeys(fields, doc).find((c) => c.key === key)!;
  const keyValue: Document = {};
  for (let i = 0; i < fields.length; i++) {
    const v = combo.values[i];
    defineField(keyValue, fields[i]!, v === undefined ? null : v);
  }
  return new DuplicateKeyError(ns, name, { ...pattern }, keyValue);
}
