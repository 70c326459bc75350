import { Binary, type Document } from 'bson';
import { compileQuery } from '../storage/mingo.js';
import { cappedOptions } from '../storage/capped.js';
import { validationOptions } from '../storage/validation.js';
import { collectionName, type CommandHandler } from './context.js';

const listDatabases: CommandHandler = (cmd, { catalog }) => {
  let databases: Document[] = catalog.databaseNames().map((name) => {
    const docs = catalog.collections(name).reduce((n, c) => n + c.docs.size, 0);
    return { name, sizeOnDisk: docs * 1024, empty: docs === 0 };
  });
  if (cmd.filter)
    databases = compileQuery(cmd.filter as Document)
      .find(databases)
      .all() as Document[];
  if (cmd.nameOnly) databases = databases.map((d) => ({ name: d.name }));
  const totalSize = databases.reduce((n, d) => n + ((d.sizeOnDisk as number) ?? 0), 0);
  return { databases, totalSize, totalSizeMb: Math.round(totalSize / 1e6), ok: 1 };
};

const listCollections: CommandHandler = (cmd, { catalog, cursors, db }) => {
  let infos: Document[] = catalog.collections(db).map((c) => ({
    name: c.name,
    type: 'collection',
    options: { ...c.options },
    info: { readOnly: false, uuid: new Binary(Buffer.from(c.ns.padEnd(16, '_').slice(0, 16)), 4) },
    idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
  }));
  if (cmd.filter)
    infos = compileQuery(cmd.filter as Document)
      .find(infos)
      .all() as Document[];
  if (cmd.nameOnly) infos = infos.map((i) => ({ name: i.name, type: i.type }));
  const batchSize = (cmd.cursor as Document | undefined)?.batchSize as number | undefined;
  return cursors.first(`${db}.$cmd.listCollections`, infos, batchSize ?? Number.MAX_SAFE_INTEGER);
};

const create: CommandHandler = (cmd, { catalog, db }) => {
  const options = { ...cappedOptions(cmd), ...validationOptions(cmd) };
  catalog.createCollection(db, collectionName(cmd, 'create'), { failIfExists: true, options });
  return { ok: 1 };
};

/**
 * Dropping a collection that does not exist succeeds, as since MongoDB 7.0 (SERVER-43894; the
 * version `hello` reports): earlier servers answered 26 NamespaceNotFound `ns not found`.
 */
const drop: CommandHandler = (cmd, { catalog, db }) => {
  const name = collectionName(cmd, 'drop');
  const coll = catalog.get(db, name);
  if (!coll) return { ok: 1 };
  const nIndexesWas = coll.indexes.size;
  catalog.dropCollection(db, name);
  return { nIndexesWas, ns: `${db}.${name}`, ok: 1 };
};

const dropDatabase: CommandHandler = (_cmd, { catalog, db }) => {
  catalog.dropDatabase(db);
  return { dropped: db, ok: 1 };
};

export const adminCommands: Record<string, CommandHandler> = {
  listDatabases,
  listCollections,
  create,
  drop,
  dropDatabase,
};
