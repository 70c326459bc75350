import type { Document } from 'bson';
import { badValue, CommandError } from '../errors.js';
import type { Catalog } from '../storage/catalog.js';
import { Collection } from '../storage/collection.js';
import { assertValid } from '../storage/validation.js';

/** The target of a final `$out` stage (`'name'` or `{db, coll}`), or undefined. */
export function outTarget(
  pipeline: Document[],
  db: string,
): { db: string; coll: string } | undefined {
  const last = pipeline[pipeline.length - 1];
  if (!last || !('$out' in last)) return undefined;
  const spec = last.$out as unknown;
  if (typeof spec === 'string') return { db, coll: spec };
  if (spec && typeof spec === 'object') {
    const { db: toDb = db, coll } = spec as Document;
    if (typeof toDb === 'string' && typeof coll === 'string') return { db: toDb, coll };
  }
  throw badValue('$out stage requires a string or an object argument with db and coll');
}

/**
 * `$out` as MongoDB runs it: the results replace the target collection's documents, its indexes
 * kept, or nothing changes at all when a result breaks a unique index (11000). The results are
 * staged in a collection outside the catalog first, so a failure leaves the target untouched.
 */
export function writeOut(
  catalog: Catalog,
  target: { db: string; coll: string },
  results: Document[],
  bypassDocumentValidation?: unknown,
): void {
  const existing = catalog.get(target.db, target.coll);
  if (existing?.options.capped)
    throw new CommandError(
      17152,
      'Location17152',
      `namespace '${existing.ns}' is capped so it can't be used for $out`,
    );
  const staged = new Collection(target.db, target.coll, existing?.options);
  for (const idx of existing?.indexes.values() ?? [])
    if (idx.name !== '_id_') staged.createIndex(idx.spec);
  for (const doc of results) {
    const prepared = staged.prepareInsert(doc);
    // The target's validator applies to what `$out` writes (a failure leaves the target as it was).
    assertValid(staged, prepared, { bypass: bypassDocumentValidation });
    staged.insert(prepared);
  }
  catalog.replaceContents(target.db, target.coll, staged);
}
