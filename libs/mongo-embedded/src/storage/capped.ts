import { calculateObjectSize, type Document } from 'bson';
import { CommandError } from '../errors.js';
import type { Collection } from './collection.js';
import type { ValidationOptions } from './validation.js';

/** The options `create` (and `collMod`) store and `listCollections` shows. */
export interface CollectionOptions extends ValidationOptions {
  capped?: boolean;
  size?: number;
  max?: number;
}

/**
 * `create`'s capped options as MongoDB checks them: `size` is required (72 InvalidOptions) and
 * positive; `max` only counts when positive.
 */
export function cappedOptions(cmd: Document): CollectionOptions {
  // A number counts as a boolean, as MongoDB reads `capped` (`{capped: 1024}` is capped, no size).
  if (cmd.capped === undefined || cmd.capped === null || !cmd.capped) return {};
  const size = Number(cmd.size);
  if (cmd.size === undefined || !Number.isFinite(size))
    throw new CommandError(
      72,
      'InvalidOptions',
      "the 'size' field is required when 'capped' is true",
    );
  if (size <= 0) throw new CommandError(72, 'InvalidOptions', "the 'size' field must be positive");
  const max = Number(cmd.max);
  return { capped: true, size, ...(cmd.max !== undefined && max > 0 ? { max } : {}) };
}

/**
 * The oldest documents (natural order) a capped collection must drop to hold at most `max`
 * documents and `size` bytes of BSON, as MongoDB removes them on insert.
 */
export function overflow(coll: Collection): Document[] {
  const { size, max } = coll.options;
  if (!coll.options.capped || size === undefined) return [];
  let count = coll.docs.size;
  let bytes = 0;
  for (const d of coll.docs.values()) bytes += calculateObjectSize(d);
  const out: Document[] = [];
  for (const d of coll.docs.values()) {
    if (count <= 1 || ((max === undefined || count <= max) && bytes <= size)) break;
    out.push(d);
    count--;
    bytes -= calculateObjectSize(d);
  }
  return out;
}
