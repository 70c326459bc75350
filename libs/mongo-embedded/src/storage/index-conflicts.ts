import { EJSON, type Document } from 'bson';
import { CommandError } from '../errors.js';
import type { IndexSpec } from './index-store.js';
import { encodeKey } from './values.js';

// What MongoDB (since 4.9, SERVER-47657) takes as an index's identity besides its name: two
// indexes may share a key pattern only if one of these differs. Absent unique/sparse equal false.
const signature = (s: IndexSpec): string =>
  encodeKey([
    s.key,
    !!s.unique,
    !!s.sparse,
    s.partialFilterExpression ?? null,
    s.collation ?? null,
  ]);

// The remaining options that must also match for a request to be the same index.
const IGNORED = new Set(['v', 'name', 'ns', 'background', 'key', 'unique', 'sparse']);
const otherOptions = (s: IndexSpec): string =>
  encodeKey(
    Object.fromEntries(
      Object.entries(s)
        .filter(([k]) => !IGNORED.has(k) && k !== 'partialFilterExpression' && k !== 'collation')
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  );

const show = (s: IndexSpec) => EJSON.stringify(s as Document, { relaxed: true });

/**
 * MongoDB's answer to a createIndexes request against the existing indexes: `'exists'` when an
 * identical index is there (a no-op), `'create'` when it may be built, otherwise the errors
 * `index_catalog_impl.cpp` raises: IndexKeySpecsConflict (86) for a name reused for another
 * index, IndexOptionsConflict (85) for the same index under other options or another name.
 */
export function checkIndexConflict(
  existing: Iterable<IndexSpec>,
  requested: IndexSpec,
): 'exists' | 'create' {
  const sig = signature(requested);
  for (const cur of existing) {
    if (cur.name !== requested.name) continue;
    if (signature(cur) !== sig)
      throw new CommandError(
        86,
        'IndexKeySpecsConflict',
        `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${show(requested)}, existing index: ${show(cur)}`,
      );
    if (otherOptions(cur) !== otherOptions(requested))
      throw new CommandError(
        85,
        'IndexOptionsConflict',
        `An equivalent index already exists with the same name but different options. Requested index: ${show(requested)}, existing index: ${show(cur)}`,
      );
    return 'exists';
  }
  for (const cur of existing) {
    if (signature(cur) !== sig) continue;
    if (otherOptions(cur) !== otherOptions(requested))
      throw new CommandError(
        85,
        'IndexOptionsConflict',
        `An equivalent index already exists with a different name and options. Requested index: ${show(requested)}, existing index: ${show(cur)}`,
      );
    throw new CommandError(
      85,
      'IndexOptionsConflict',
      `Index already exists with a different name: ${cur.name}`,
    );
  }
  return 'create';
}
