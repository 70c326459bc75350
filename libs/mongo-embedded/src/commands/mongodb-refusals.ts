import type { Document } from 'bson';
import { badValue, CommandError, invalidNamespace } from '../errors.js';
import { notImplemented } from './refusals.js';
import type { Catalog } from '../storage/catalog.js';
import { compileQuery } from '../storage/mingo.js';

/**
 * What a standalone MongoDB 7 refuses and this server used to accept. Checked before the
 * command runs, so nothing has been written when one of these answers.
 */
export function validateAsMongoDB(name: string, cmd: Document, catalog: Catalog, db: string): void {
  validateNamespace(name, cmd, db);
  validateWriteConcern(cmd.writeConcern);
  const target = cmd[name];
  switch (name) {
    case 'find':
      if (cmd.tailable === true && typeof target === 'string' && catalog.get(db, target)) {
        if (catalog.get(db, target)!.options.capped) throw notImplemented('Tailable cursors');
        throw badValue(
          `error processing query: ns=${db}.${target} tailable cursor requested on non capped collection`,
        );
      }
      validateFilterOnMissing(cmd.filter, catalog, db, target);
      return;
    case 'count':
    case 'distinct':
    case 'findAndModify':
    case 'findandmodify':
      validateFilterOnMissing(cmd.query, catalog, db, target);
      return;
    case 'update':
      for (const st of (Array.isArray(cmd.updates) ? cmd.updates : []) as Document[]) {
        // `sort` on an update statement is MongoDB 8.0's; this server answers as 7.0 does.
        if (st && typeof st === 'object' && st.sort !== undefined)
          throw new CommandError(
            40415,
            'Location40415',
            "BSON field 'update.updates.sort' is an unknown field.",
          );
        validateFilterOnMissing(st?.q, catalog, db, target);
      }
      return;
    case 'delete':
      for (const st of (Array.isArray(cmd.deletes) ? cmd.deletes : []) as Document[])
        validateFilterOnMissing(st?.q, catalog, db, target);
      return;
  }
}

/** A database or collection name with a NUL byte cannot name anything (BSON strings may hold one). */
function validateNamespace(name: string, cmd: Document, db: string): void {
  const target = cmd[name];
  const coll = typeof target === 'string' ? target : '';
  if (db.includes('\0') || coll.includes('\0'))
    throw invalidNamespace(`Invalid namespace specified '${db}.${coll}'`);
}

/** A standalone has no other member to acknowledge a write. */
function validateWriteConcern(wc: unknown): void {
  if (!wc || typeof wc !== 'object') return;
  const w = (wc as Document).w;
  if (typeof w === 'number' && w > 1)
    throw badValue("cannot use 'w' > 1 when a host is not replicated");
  if (typeof w === 'string' && w !== 'majority')
    throw badValue(`cannot use non-majority 'w' mode ${w} when a host is not replicated`);
}

/**
 * A filter is parsed even when its collection does not exist: an unknown operator is BadValue
 * there too (MongoDB parses before it looks for the collection). An existing collection's
 * queries parse the filter when they run.
 */
function validateFilterOnMissing(filter: unknown, catalog: Catalog, db: string, coll: unknown) {
  if (!filter || typeof filter !== 'object' || typeof coll !== 'string') return;
  if (catalog.get(db, coll)) return;
  compileQuery(filter as Document);
}
