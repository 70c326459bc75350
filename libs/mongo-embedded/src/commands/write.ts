import { calculateObjectSize, type Binary, type Document } from 'bson';
import { projectWithMingo } from '../storage/mingo.js';
import { badValue, toCommandError } from '../errors.js';
import type { Catalog } from '../storage/catalog.js';
import { Collection } from '../storage/collection.js';
import { moveIdFirst } from '../storage/raw-bson.js';
import { addRawArgs } from '../storage/raw-strings.js';
import { RAW_DOCUMENTS } from '../wire/messages.js';
import { collectionName, type CommandHandler } from './context.js';
import { runQuery } from './read.js';
import { applyUpdate, buildUpsert, type UpdateSpec } from './update-engine.js';
import { assertInsertSize } from '../update/limits.js';
import { assertValid } from '../storage/validation.js';
import type { Logger } from '../logger.js';
import { compileProjection } from '../query/projection.js';
import {
  addNumericTypes,
  forgetSetNumbers,
  numericArgsFor,
  rememberNumericTypes,
  typedForm,
  type NumericType,
} from '../numeric/types.js';
import { settleOperatorTypes } from '../numeric/arithmetic.js';
import { pushedNumericTypes, type UpdateSource } from '../numeric/pushed.js';

interface WriteError {
  index: number;
  code: number;
  errmsg: string | Binary;
  [extra: string]: unknown;
}

function writeError(index: number, err: unknown): WriteError {
  const e = toCommandError(err);
  return { index, code: e.code, errmsg: e.errmsg, ...e.extra };
}

/** Runs each statement in order; ordered batches stop at the first failure, as MongoDB does. */
function eachStatement<T>(
  items: T[],
  ordered: boolean,
  run: (item: T, index: number) => void,
): WriteError[] {
  const errors: WriteError[] = [];
  for (let i = 0; i < items.length; i++) {
    try {
      run(items[i]!, i);
    } catch (err) {
      errors.push(writeError(i, err));
      if (ordered) break;
    }
  }
  return errors;
}

function withErrors(result: Document, errors: WriteError[]): Document {
  return errors.length ? { ...result, writeErrors: errors } : result;
}

const insert: CommandHandler = (cmd, { catalog, db, logger }) => {
  const coll = catalog.getOrCreate(db, collectionName(cmd, 'insert'));
  const docs = cmd.documents;
  if (!Array.isArray(docs)) throw badValue("'documents' must be an array");
  // The documents' BSON as received (see RAW_DOCUMENTS), journaled as is when `_id` needed no change
  // and with the `_id` element moved first when prepareInsert only moved it (drivers append `_id`).
  const raw = (cmd as Record<symbol, Uint8Array[] | undefined>)[RAW_DOCUMENTS];
  let n = 0;
  const errors = eachStatement(docs as Document[], cmd.ordered !== false, (d, i) => {
    const bytes = raw?.[i];
    // The received bytes give the size for free; only documents without them are measured.
    assertInsertSize(bytes ? bytes.length : calculateObjectSize(d));
    const doc = coll.prepareInsert(d);
    if (bytes) rememberNumericTypes(doc, bytes);
    assertValid(coll, doc, { bypass: cmd.bypassDocumentValidation, logger });
    catalog.insert(
      coll,
      doc,
      bytes && (doc === d ? bytes : d._id !== undefined ? moveIdFirst(bytes) : undefined),
    );
    n++;
  });
  return withErrors({ n, ok: 1 }, errors);
};

export function updateOne(
  catalog: Catalog,
  coll: Collection,
  doc: Document,
  spec: UpdateSpec,
  opts: {
    arrayFilters?: Document[];
    query: Document;
    numericArgs?: Map<string, NumericType>;
    source?: UpdateSource;
    /** The command's `bypassDocumentValidation`. */
    bypass?: unknown;
    logger?: Pick<Logger, 'warn'>;
  },
): { doc: Document; modified: boolean } {
  const res = applyUpdate(doc, spec, opts);
  forgetSetNumbers(res.doc, spec);
  addNumericTypes(res.doc, opts.numericArgs);
  if (opts.source) addRawArgs(res.doc, opts.source.command, opts.source.path);
  addNumericTypes(res.doc, pushedNumericTypes(opts.source, spec, doc, res.doc));
  settleOperatorTypes(doc, res.doc, spec, opts.source);
  if (res.modified) {
    assertValid(coll, res.doc, { oldDoc: doc, bypass: opts.bypass, logger: opts.logger });
    catalog.replace(coll, doc, res.doc);
  }
  return res;
}

interface UpdateStatement {
  q?: Document;
  u?: UpdateSpec;
  multi?: boolean;
  upsert?: boolean;
  arrayFilters?: Document[];
  sort?: Document;
}

const update: CommandHandler = (cmd, { catalog, db, logger }) => {
  const name = collectionName(cmd, 'update');
  catalog.assertValidNamespace(db, name);
  const statements = cmd.updates;
  if (!Array.isArray(statements)) throw badValue("'updates' must be an array");
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const errors = eachStatement(
    statements as UpdateStatement[],
    cmd.ordered !== false,
    (st, index) => {
      // Read per statement: an earlier upsert of this command may have created the collection.
      const coll = catalog.getOrEmpty(db, name);
      const q = st.q ?? {};
      const u = st.u ?? {};
      if (
        st.multi &&
        !Array.isArray(u) &&
        !Object.keys(u).every((k) => k.startsWith('$')) &&
        Object.keys(u).length
      ) {
        throw badValue('multi update is not supported for replacement-style update');
      }
      const matches = st.multi
        ? coll.find(q)
        : runQuery(coll, { filter: q, sort: st.sort, limit: 1 });
      // The filter's values only become fields when the statement inserts.
      const numericArgs = numericArgsFor(cmd, `updates.${index}.u`);
      if (matches.length === 0 && st.upsert) {
        const doc = buildUpsert(q, u, st.arrayFilters);
        addNumericTypes(doc, numericArgsFor(cmd, `updates.${index}.u`, `updates.${index}.q`));
        addRawArgs(doc, cmd, `updates.${index}.u`, `updates.${index}.q`);
        const source = { command: cmd, path: `updates.${index}.u` };
        addNumericTypes(doc, pushedNumericTypes(source, u, {}, doc));
        // `$mul: {f: 1.5}` on the inserted document writes a double 0, as on an existing one.
        settleOperatorTypes({}, doc, u, source);
        const target = catalog.getOrCreate(db, name);
        assertValid(target, doc, { bypass: cmd.bypassDocumentValidation, logger });
        catalog.insert(target, doc);
        upserted.push({ index, _id: doc._id });
        n++;
        return;
      }
      for (const doc of matches) {
        // Re-read: an earlier iteration of this multi-update may have replaced the stored version.
        const current = coll.docs.get(Collection.idKey(doc));
        if (!current) continue;
        n++;
        if (
          updateOne(catalog, coll, current, u, {
            arrayFilters: st.arrayFilters,
            query: q,
            numericArgs,
            source: { command: cmd, path: `updates.${index}.u` },
            bypass: cmd.bypassDocumentValidation,
            logger,
          }).modified
        )
          nModified++;
      }
    },
  );
  const result: Document = { n, nModified, ok: 1 };
  if (upserted.length) result.upserted = upserted;
  return withErrors(result, errors);
};

interface DeleteStatement {
  q?: Document;
  limit?: number;
}

const del: CommandHandler = (cmd, { catalog, db }) => {
  const coll = catalog.get(db, collectionName(cmd, 'delete'));
  const statements = cmd.deletes;
  if (!Array.isArray(statements)) throw badValue("'deletes' must be an array");
  let n = 0;
  const errors = eachStatement(statements as DeleteStatement[], cmd.ordered !== false, (st) => {
    if (!coll) return;
    const q = st.q ?? {};
    const matches = coll.find(q);
    for (const doc of st.limit === 1 ? matches.slice(0, 1) : matches) {
      catalog.remove(coll, doc);
      n++;
    }
  });
  return withErrors({ n, ok: 1 }, errors);
};

const findAndModify: CommandHandler = (cmd, { catalog, db, logger }) => {
  const name = collectionName(
    cmd,
    cmd.findAndModify !== undefined ? 'findAndModify' : 'findandmodify',
  );
  const coll = catalog.getOrEmpty(db, name);
  const query = (cmd.query as Document | undefined) ?? {};
  const fields = cmd.fields as Document | undefined;
  const projection =
    fields && Object.keys(fields).length ? compileProjection(fields, query) : undefined;
  const project = (stored: Document | null) => {
    const d = stored && typedForm(stored);
    return d && projection
      ? projection(d)
      : d && fields && Object.keys(fields).length
        ? projectWithMingo([d], fields)[0]!
        : d;
  };
  const [found] = runQuery(coll, {
    filter: query,
    sort: cmd.sort as Document | undefined,
    limit: 1,
  });
  if (cmd.remove) {
    if (found) catalog.remove(coll, found);
    return { lastErrorObject: { n: found ? 1 : 0 }, value: project(found ?? null), ok: 1 };
  }
  const spec = cmd.update as UpdateSpec | undefined;
  if (!spec) throw badValue('Either an update or remove=true must be specified');
  const arrayFilters = cmd.arrayFilters as Document[] | undefined;
  if (!found) {
    if (!cmd.upsert)
      return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
    const doc = buildUpsert(query, spec, arrayFilters);
    addNumericTypes(doc, numericArgsFor(cmd, 'update', 'query'));
    addRawArgs(doc, cmd, 'update', 'query');
    const source = { command: cmd, path: 'update' };
    addNumericTypes(doc, pushedNumericTypes(source, spec, {}, doc));
    settleOperatorTypes({}, doc, spec, source);
    const target = catalog.getOrCreate(db, name);
    assertValid(target, doc, { bypass: cmd.bypassDocumentValidation, logger });
    catalog.insert(target, doc);
    return {
      lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id },
      value: project(cmd.new ? doc : null),
      ok: 1,
    };
  }
  const res = updateOne(catalog, coll, found, spec, {
    arrayFilters,
    query,
    numericArgs: numericArgsFor(cmd, 'update'),
    source: { command: cmd, path: 'update' },
    bypass: cmd.bypassDocumentValidation,
    logger,
  });
  return {
    lastErrorObject: { n: 1, updatedExisting: true },
    value: project(cmd.new ? res.doc : found),
    ok: 1,
  };
};

export const writeCommands: Record<string, CommandHandler> = {
  insert,
  update,
  delete: del,
  findAndModify,
  findandmodify: findAndModify,
};
