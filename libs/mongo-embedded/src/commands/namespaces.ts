import { calculateObjectSize, type Document } from 'bson';
import {
  badValue,
  CommandError,
  illegalOperation,
  invalidNamespace,
  namespaceExists,
  namespaceNotFound,
} from '../errors.js';
import { typedForm } from '../numeric/types.js';
import type { Collection } from '../storage/collection.js';
import { collectionName, type CommandHandler } from './context.js';

function splitNamespace(ns: unknown, field: string): [string, string] {
  if (typeof ns !== 'string') throw badValue(`'${field}' must be of type string`);
  const dot = ns.indexOf('.');
  if (dot <= 0 || dot === ns.length - 1)
    throw invalidNamespace(`Invalid namespace specified '${ns}'`);
  return [ns.slice(0, dot), ns.slice(dot + 1)];
}

/** `renameCollection` (run against `admin`), within a database or across databases. */
const renameCollection: CommandHandler = (cmd, { catalog, db }) => {
  if (db !== 'admin')
    throw new CommandError(
      13,
      'Unauthorized',
      'renameCollection may only be run against the admin database.',
    );
  const [fromDb, from] = splitNamespace(cmd.renameCollection, 'renameCollection');
  const [toDb, to] = splitNamespace(cmd.to, 'to');
  const source = catalog.get(fromDb, from);
  if (!source) throw namespaceNotFound(`Source collection ${fromDb}.${from} does not exist`);
  if (fromDb === toDb && from === to) throw illegalOperation("Can't rename a collection to itself");
  if (catalog.get(toDb, to)) {
    if (cmd.dropTarget !== true) throw namespaceExists(`${toDb}.${to}`);
    catalog.dropCollection(toDb, to);
  }
  catalog.renameCollection(source, toDb, to);
  return { ok: 1 };
};

/**
 * `dbStats`: counts are exact; `dataSize` is the documents' BSON size and, memory being the only
 * storage, `storageSize` equals it. `indexSize` estimates each entry as its key's BSON size.
 */
const dbStats: CommandHandler = (cmd, { catalog, db }) => {
  const scale = typeof cmd.scale === 'number' && cmd.scale >= 1 ? Math.floor(cmd.scale) : 1;
  let objects = 0;
  let dataSize = 0;
  let indexes = 0;
  let indexSize = 0;
  const collections = catalog.collections(db);
  for (const coll of collections) {
    const sizes = sizesOf(coll);
    objects += coll.docs.size;
    dataSize += sizes.dataSize;
    indexes += coll.indexes.size;
    for (const n of Object.values(sizes.indexSizes)) indexSize += n;
  }
  const scaled = (n: number) => Math.floor(n / scale);
  return {
    db,
    collections: collections.length,
    views: 0,
    objects,
    avgObjSize: objects ? dataSize / objects : 0,
    dataSize: scaled(dataSize),
    storageSize: scaled(dataSize),
    indexes,
    indexSize: scaled(indexSize),
    totalSize: scaled(dataSize + indexSize),
    scaleFactor: scale,
    ok: 1,
  };
};

/** The documents' BSON size, and each index estimated as its key's BSON size per document. */
function sizesOf(coll: Collection): { dataSize: number; indexSizes: Record<string, number> } {
  let dataSize = 0;
  for (const doc of coll.docs.values()) dataSize += calculateObjectSize(typedForm(doc));
  const indexSizes: Record<string, number> = {};
  for (const idx of coll.indexes.values())
    indexSizes[idx.name] = coll.docs.size * (16 + calculateObjectSize(idx.spec.key as Document));
  return { dataSize, indexSizes };
}

/** `collStats`, measured as `dbStats` is; a missing collection has zeros, as MongoDB 7 answers. */
const collStats: CommandHandler = (cmd, { catalog, db }) => {
  const name = collectionName(cmd, 'collStats');
  const scale = typeof cmd.scale === 'number' && cmd.scale >= 1 ? Math.floor(cmd.scale) : 1;
  const coll = catalog.get(db, name);
  const { dataSize, indexSizes } = coll ? sizesOf(coll) : { dataSize: 0, indexSizes: {} };
  const count = coll?.docs.size ?? 0;
  const totalIndexSize = Object.values(indexSizes).reduce((a, b) => a + b, 0);
  const scaled = (n: number) => Math.floor(n / scale);
  return {
    ns: `${db}.${name}`,
    count,
    size: scaled(dataSize),
    avgObjSize: count ? Math.floor(dataSize / count) : 0,
    storageSize: scaled(dataSize),
    nindexes: coll?.indexes.size ?? 0,
    totalIndexSize: scaled(totalIndexSize),
    totalSize: scaled(dataSize + totalIndexSize),
    indexSizes: Object.fromEntries(Object.entries(indexSizes).map(([k, v]) => [k, scaled(v)])),
    scaleFactor: scale,
    capped: !!coll?.options.capped,
    ...(coll?.options.max !== undefined ? { max: coll.options.max } : {}),
    ...(coll?.options.size !== undefined ? { maxSize: scaled(coll.options.size) } : {}),
    ok: 1,
  };
};

export const namespaceCommands: Record<string, CommandHandler> = {
  renameCollection,
  dbStats,
  collStats,
};
