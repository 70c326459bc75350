import type { Document } from 'bson';
import type { Collection } from './collection.js';
import type { IndexStore } from './index-store.js';
import { compileQuery } from './mingo.js';
import { idOf } from './ordered-keys.js';
import { encodeKey } from './values.js';

/**
 * The index a `hint` names, by name or key pattern; undefined for none and for `$natural`. A
 * hidden index is not found, as MongoDB's planner does not see it.
 */
export function hintedIndex(coll: Collection, hint: unknown): IndexStore | undefined {
  if (hint === undefined || hint === null) return undefined;
  if (typeof hint === 'string') {
    const idx = coll.indexes.get(hint);
    return idx?.spec.hidden ? undefined : idx;
  }
  if (typeof hint !== 'object' || Object.keys(hint).length === 0 || '$natural' in hint)
    return undefined;
  const key = encodeKey(hint);
  for (const idx of coll.indexes.values())
    if (!idx.spec.hidden && encodeKey(idx.spec.key) === key) return idx;
  return undefined;
}

/**
 * The matches of a query forced onto one index, as MongoDB runs it: a scan of that index, so the
 * documents come in the index's order and a sparse or partial index yields only the documents
 * it holds (MongoDB's documented result for such a hint).
 */
export function hintedMatches(
  coll: Collection,
  index: IndexStore,
  filter: Document,
  stats: { keysExamined: number; docsExamined: number },
): Document[] {
  const query = compileQuery(filter);
  const seen = index.multikey ? new Set<string>() : undefined;
  const out: Document[] = [];
  for (const entry of index.ordered.all()) {
    stats.keysExamined++;
    const id = idOf(entry);
    if (seen) {
      if (seen.has(id)) continue;
      seen.add(id);
    }
    const doc = coll.docs.get(id);
    stats.docsExamined++;
    if (doc && query.test(doc)) out.push(doc);
  }
  return out;
}
