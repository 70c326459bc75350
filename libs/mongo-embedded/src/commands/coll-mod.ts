import type { Document } from 'bson';
import { namespaceNotFound } from '../errors.js';
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

/**
 * `collMod` of a collection's schema validation (`validator`, `validationLevel`,
 * `validationAction`). Any other option (index changes, TTL, views, pre- and post-images) is
 * NotImplemented by name, and nothing changes when one is present.
 */
const collMod: CommandHandler = (cmd, { catalog, db }) => {
  const name = collectionName(cmd, 'collMod');
  for (const key of Object.keys(cmd))
    if (!key.startsWith('$') && !GENERIC.has(key) && !VALIDATION.has(key))
      throw notImplemented(`collMod option '${key}'`);
  const coll = catalog.get(db, name);
  if (!coll) throw namespaceNotFound(`ns does not exist: ${db}.${name}`);
  const changed = validationOptions(cmd);
  const options: Document = { ...coll.options, ...changed };
  // MongoDB lists the level and action once a validator has been set by collMod.
  if (changed.validator !== undefined) {
    options.validationLevel ??= 'strict';
    options.validationAction ??= 'error';
  }
  catalog.setOptions(coll, options);
  return { ok: 1 };
};

export const collModCommands: Record<string, CommandHandler> = { collMod };
