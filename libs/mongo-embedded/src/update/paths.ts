import { EJSON, type Document } from 'bson';
import { CommandError } from '../errors.js';

/** Operators that create the path they name when it is missing (so a path through a scalar or an array cannot work). */
export const CREATING_OPERATORS = new Set([
  '$set',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$push',
  '$addToSet',
  '$bit',
]);

const shown = (key: string, value: unknown): string => {
  let text: string;
  try {
    text = EJSON.stringify({ [key]: value } as Document, { relaxed: true });
  } catch {
    text = `{"${key}": ...}`;
  }
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
};

/**
 * MongoDB refuses (28, PathNotViable) to create a field inside a scalar or, with a field name
 * rather than an index, inside an array: `$set: {'items.name': x}` on an array of subdocuments
 * would otherwise be guessed at. Paths with `$[...]` are left to the array-filter machinery.
 */
export function assertPathViable(doc: Document, path: string): void {
  const parts = path.split('.');
  let cur: unknown = doc;
  let parentKey = '';
  for (const part of parts) {
    if (part.startsWith('$')) return;
    if (cur === undefined) return;
    const isIndex = /^\d+$/.test(part);
    if (
      cur === null ||
      typeof cur !== 'object' ||
      cur instanceof Date ||
      '_bsontype' in (cur as object) ||
      (Array.isArray(cur) && !isIndex)
    ) {
      throw new CommandError(
        28,
        'PathNotViable',
        `Cannot create field '${part}' in element ${shown(parentKey, cur)}`,
      );
    }
    cur = (cur as Record<string, unknown>)[part];
    parentKey = part;
  }
}
