import type { Document } from 'bson';
import { badValue, CommandError, indexNotFound, namespaceNotFound } from '../errors.js';
import type { Catalog } from '../storage/catalog.js';
import type { Collection } from '../storage/collection.js';
import { validationOptions } from '../storage/validation.js';
import { collectionName, type CommandHandler } from './context.js';
import { notImplemented } from './refusals.js';

// Arguments every command may carry, which say nothing about the collection.
const GENERIC = new Set([
  'collMod',
  'lsid',
  'txnNumber',
  'writeConcern',
  'comment',
  'maxTimeMS',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'readConcern',
]);
const VALIDATION = new Set(['validator', 'validationLevel', 'validationAction']);
const INDEX_FIELDS = new Set([
  'name',
  'keyPattern',
  'hidden',
  'expireAfterSeconds',
  'unique',
  'prepareUnique',
]);
const INDEX_CHANGES = ['hidden', 'expireAfterSeconds', 'unique', 'prepareUnique'];
/** MongoDB's range for `expireAfterSeconds`. */
const MAX_EXPIRE_AFTER_SECONDS = 2_147_483_647;

const invalidOptions = (message: string) => new CommandError(72, 'InvalidOptions', message);

/** The index a `collMod` `index` option names (by `name` or `keyPattern`), with its checks. */
function indexToModify(coll: Collection, spec: unknown): string {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec))
    throw badValue("'index' must be an object");
  const s = spec as Document;
  for (const key of Object.keys(s))
    if (!INDEX_FIELDS.has(key)) throw notImplemented(`collMod option 'index.${key}'`);
  if ((s.name === undefined) === (s.keyPattern === undefined))
    throw badValue('Must specify either index name or key pattern.');
  if (INDEX_CHANGES.every((k) => s[k] === undefined))
    throw invalidOptions('no expireAfterSeconds, hidden, unique, or prepareUnique field');
  for (const k of ['unique', 'prepareUnique'])
    if (s[k] !== undefined && typeof s[k] !== 'boolean' && typeof s[k] !== 'number')
      throw new CommandError(14, 'TypeMismatch', `'${k}' must be a boolean`);
  if (s.unique !== undefined && !s.unique) throw badValue('Cannot make index non-unique');
  if (s.hidden !== undefined && typeof s.hidden !== 'boolean')
    throw badValue("'hidden' must be a boolean");
  if (s.expireAfterSeconds !== undefined) {
    if (typeof s.expireAfterSeconds !== 'number' || !Number.isFinite(s.expireAfterSeconds))
      throw new CommandError(14, 'TypeMismatch', 'expireAfterSeconds must be a number');
    if (s.expireAfterSeconds < 0 || s.expireAfterSeconds > MAX_EXPIRE_AFTER_SECONDS)
      throw invalidOptions(
        `TTL index 'expireAfterSeconds' option must be within an acceptable range, try a value between 0 and ${MAX_EXPIRE_AFTER_SECONDS}`,
      );
  }
  const idx =
    typeof s.name === 'string'
      ? coll.indexes.get(s.name)
      : coll.findIndexByKey((s.keyPattern ?? {}) as Document);
  if (!idx)
    throw indexNotFound(
      `cannot find index ${JSON.stringify(s.name ?? s.keyPattern)} for ns ${coll.ns}`,
    );
  if (idx.name === '_id_' && s.hidden !== undefined) throw badValue("can't hide _id index");
  if (s.expireAfterSeconds !== undefined) {
    if (idx.name === '_id_') throw invalidOptions('the _id field does not support TTL indexes');
    if (idx.fields.length !== 1)
      throw invalidOptions(
        'TTL indexes are single-field indexes, compound indexes do not support TTL',
      );
  }
  // An index already unique takes `unique`/`prepareUnique` as no-ops; otherwise `unique` needs
  // `prepareUnique` set by an earlier collMod (MongoDB 6.0+ converts in two steps).
  if (s.unique && !idx.spec.unique && idx.name !== '_id_' && idx.spec.prepareUnique !== true)
    throw invalidOptions(
      "Cannot make index unique with 'prepareUnique=false'. Run collMod to set it first.",
    );
  return idx.name;
}

/** A `unique: true` conversion's refusal while documents share a key: 359, listing them. */
function assertNoDuplicates(coll: Collection, name: string): void {
  const groups = coll.indexes.get(name)!.duplicateGroups();
  if (groups.length === 0) return;
  throw new CommandError(
    359,
    'CannotConvertIndexToUnique',
    'Cannot convert the index to unique. Please resolve conflicting documents before running collMod again.',
    { violations: groups.map((ids) => ({ ids: ids.map((id) => coll.docs.get(id)!._id) })) },
  );
}

const isUnique = (coll: Collection, name: string) =>
  name === '_id_' || coll.indexes.get(name)!.spec.unique === true;

/**
 * `index: {name | keyPattern, hidden?, expireAfterSeconds?, unique?, prepareUnique?}`: answers
 * each option's value before and after, as MongoDB does (`expireAfterSeconds_old` only when the
 * index had one; `unique_new` and `prepareUnique_old`/`_new` only when the index changed).
 */
function modifyIndex(catalog: Catalog, coll: Collection, spec: Document): Document {
  const name = indexToModify(coll, spec);
  const answer: Document = {};
  if (spec.expireAfterSeconds !== undefined) {
    const before = coll.indexes.get(name)!.spec.expireAfterSeconds;
    const seconds = Math.trunc(spec.expireAfterSeconds as number);
    if (before !== seconds) catalog.setIndexExpiry(coll, name, seconds);
    if (typeof before === 'number') answer.expireAfterSeconds_old = before;
    answer.expireAfterSeconds_new = seconds;
  }
  if (spec.hidden !== undefined) {
    const before = coll.indexes.get(name)!.spec.hidden === true;
    if (before !== spec.hidden) catalog.setIndexHidden(coll, name, spec.hidden as boolean);
    Object.assign(answer, { hidden_old: before, hidden_new: spec.hidden });
  }
  if (spec.unique && !isUnique(coll, name)) {
    catalog.setIndexUnique(coll, name, { unique: true });
    answer.unique_new = true;
  }
  if (spec.prepareUnique !== undefined && !isUnique(coll, name)) {
    const before = coll.indexes.get(name)!.spec.prepareUnique === true;
    const after = !!spec.prepareUnique;
    if (before !== after) {
      catalog.setIndexUnique(coll, name, { prepareUnique: after });
      Object.assign(answer, { prepareUnique_old: before, prepareUnique_new: after });
    }
  }
  return answer;
}

/**
 * `collMod` of a collection's schema validation (`validator`, `validationLevel`,
 * `validationAction`) and of an index's `hidden`, `expireAfterSeconds`, `prepareUnique` and
 * `unique` (the two steps of a conversion to unique, MongoDB 6.0+). Any other option
 * (`forceNonUnique`, `dryRun`, views, pre- and post-images) is NotImplemented by name, and nothing
 * changes when one is present.
 */
const collMod: CommandHandler = (cmd, { catalog, db }) => {
  const name = collectionName(cmd, 'collMod');
  for (const key of Object.keys(cmd))
    if (!key.startsWith('$') && !GENERIC.has(key) && !VALIDATION.has(key) && key !== 'index')
      throw notImplemented(`collMod option '${key}'`);
  const coll = catalog.get(db, name);
  if (!coll) throw namespaceNotFound(`ns does not exist: ${db}.${name}`);
  const changed = validationOptions(cmd);
  if (cmd.index !== undefined) {
    // Checked before anything changes.
    const index = cmd.index as Document;
    const indexName = indexToModify(coll, index);
    const changes =
      Object.keys(changed).length + INDEX_CHANGES.filter((k) => index[k] !== undefined).length;
    if (index.prepareUnique !== undefined && changes > 1)
      throw invalidOptions('prepareUnique cannot be combined with any other modification.');
    if (index.unique && !isUnique(coll, indexName)) assertNoDuplicates(coll, indexName);
  }
  const options: Document = { ...coll.options, ...changed };
  // MongoDB lists the level and action once a validator has been set by collMod.
  if (changed.validator !== undefined) {
    options.validationLevel ??= 'strict';
    options.validationAction ??= 'error';
  }
  if (Object.keys(changed).length) catalog.setOptions(coll, options);
  const index = cmd.index !== undefined ? modifyIndex(catalog, coll, cmd.index as Document) : {};
  return { ...index, ok: 1 };
};

export const collModCommands: Record<string, CommandHandler> = { collMod };
