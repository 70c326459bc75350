import type { Document } from 'bson';
import { badValue, namespaceNotFound } from '../errors.js';
import type { Collection } from '../storage/collection.js';
import { IndexStore } from '../storage/index-store.js';
import { idOf } from '../storage/ordered-keys.js';
import { encodeKey } from '../storage/values.js';
import { collectionName, type CommandHandler } from './context.js';
import { notImplemented } from './refusals.js';

// MongoDB's default `slowms` and `sampleRate`, reported as the settings of a profiler that is off.
const SLOW_MS = 100;
const SAMPLE_RATE = 1;

/**
 * `profile`: there is no profiler, so the level is always 0 (off). Reading it (`-1`) and setting
 * it to 0 answer as MongoDB does; levels 1 and 2 would record operations in `system.profile`,
 * which this server does not do, so they are NotImplemented rather than acknowledged.
 */
const profile: CommandHandler = (cmd) => {
  const level = cmd.profile as unknown;
  if (level !== -1 && level !== 0 && level !== 1 && level !== 2)
    throw badValue(`Invalid profiling level ${JSON.stringify(level)}`);
  if (level === 1 || level === 2) throw notImplemented('The profiler (profile levels 1 and 2)');
  // They would change what the slow-operation log records; there is no such log to change.
  for (const setting of ['slowms', 'sampleRate', 'filter'])
    if (cmd[setting] !== undefined) throw notImplemented(`The profile setting '${setting}'`);
  return { was: 0, slowms: SLOW_MS, sampleRate: SAMPLE_RATE, ok: 1 };
};

/** One index's entries as `key|id` strings, sorted (natural positions left out). */
function entriesOf(idx: IndexStore): string[] {
  const out: string[] = [];
  for (const e of idx.ordered.all()) out.push(`${encodeKey(e.slice(0, -2))}|${idOf(e)}`);
  return out.sort();
}

/** Whether an index holds exactly the entries an index rebuilt from the documents would hold. */
function indexMatches(coll: Collection, idx: IndexStore): { keys: number; valid: boolean } {
  const rebuilt = new IndexStore(idx.spec, coll.ns);
  for (const [id, doc] of coll.docs) rebuilt.add(doc, id);
  const live = entriesOf(idx);
  const want = entriesOf(rebuilt);
  return {
    keys: live.length,
    valid: live.length === want.length && live.every((k, i) => k === want[i]),
  };
}

/**
 * `validate`: every index is compared with one rebuilt from the collection's documents (the
 * in-memory structures are what there is to validate; there are no on-disk records). `full` and
 * `repair` change nothing here.
 */
const validate: CommandHandler = (cmd, { catalog, db }) => {
  const name = collectionName(cmd, 'validate');
  const coll = catalog.get(db, name);
  if (!coll) throw namespaceNotFound(`Collection '${db}.${name}' does not exist to validate.`);
  const keysPerIndex: Document = {};
  const indexDetails: Document = {};
  const errors: string[] = [];
  for (const idx of coll.indexes.values()) {
    const { keys, valid } = indexMatches(coll, idx);
    keysPerIndex[idx.name] = keys;
    indexDetails[idx.name] = { valid };
    if (!valid) errors.push(`index '${idx.name}' does not hold exactly the collection's documents`);
  }
  return {
    ns: coll.ns,
    nInvalidDocuments: 0,
    nNonCompliantDocuments: 0,
    nrecords: coll.docs.size,
    nIndexes: coll.indexes.size,
    keysPerIndex,
    indexDetails,
    valid: errors.length === 0,
    repaired: false,
    warnings: [],
    errors,
    extraIndexEntries: [],
    missingIndexEntries: [],
    corruptRecords: [],
    ok: 1,
  };
};

export const diagnosticCommands: Record<string, CommandHandler> = { profile, validate };
