import type { Document } from 'bson';
import { badValue, indexNotFound, namespaceNotFound } from '../errors.js';
import type { IndexSpec } from '../storage/index-store.js';
import { collectionName, type CommandHandler } from './context.js';

const defaultName = (key: Document) =>
  Object.entries(key)
    .map(([k, v]) => `${k}_${v}`)
    .join('_');

const createIndexes: CommandHandler = (cmd, { catalog, db }) => {
  const name = collectionName(cmd, 'createIndexes');
  if (!Array.isArray(cmd.indexes) || cmd.indexes.length === 0)
    throw badValue('Must specify at least one index to create');
  const createdCollectionAutomatically = !catalog.get(db, name);
  const coll = catalog.getOrCreate(db, name);
  const numIndexesBefore = coll.indexes.size;
  for (const raw of cmd.indexes as Document[]) {
    if (!raw.key || typeof raw.key !== 'object')
      throw badValue('index specification must have a key');
    const spec: IndexSpec = {
      v: 2,
      ...raw,
      key: raw.key as IndexSpec['key'],
      name: (raw.name as string) ?? defaultName(raw.key),
    };
    // `background` has no effect since 4.2, but MongoDB keeps it in the spec and lists it.
    catalog.createIndex(coll, spec);
  }
  return {
    numIndexesBefore,
    numIndexesAfter: coll.indexes.size,
    createdCollectionAutomatically,
    ok: 1,
  };
};

const listIndexes: CommandHandler = (cmd, { catalog, cursors, db }) => {
  const name = collectionName(cmd, 'listIndexes');
  const coll = catalog.get(db, name);
  if (!coll) throw namespaceNotFound(`ns does not exist: ${db}.${name}`);
  const batchSize = (cmd.cursor as Document | undefined)?.batchSize as number | undefined;
  return cursors.first(`${db}.${name}`, coll.indexSpecs(), batchSize ?? Number.MAX_SAFE_INTEGER);
};

const dropIndexes: CommandHandler = (cmd, { catalog, db }) => {
  const name = collectionName(cmd, cmd.dropIndexes !== undefined ? 'dropIndexes' : 'deleteIndexes');
  const coll = catalog.get(db, name);
  if (!coll) throw namespaceNotFound(`ns not found ${db}.${name}`);
  const nIndexesWas = coll.indexes.size;
  const target = cmd.index;
  const names: string[] =
    target === '*'
      ? [...coll.indexes.keys()].filter((n) => n !== '_id_')
      : Array.isArray(target)
        ? (target as string[])
        : typeof target === 'string'
          ? [target]
          : [coll.findIndexByKey(target as Document)?.name ?? ''];
  for (const n of names) {
    if (!coll.indexes.has(n)) throw indexNotFound(`index not found with name [${n}]`);
  }
  for (const n of names) catalog.dropIndex(coll, n);
  return { nIndexesWas, ok: 1 };
};

export const indexCommands: Record<string, CommandHandler> = {
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
};
