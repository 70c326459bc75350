import type { Document } from 'bson';
import { projectWithMingo } from '../storage/mingo.js';
import { badValue } from '../errors.js';
import type { Collection } from '../storage/collection.js';
import { executeCount, executeFind, type QueryOptions } from '../storage/query-exec.js';
import { encodeKey, pathValues } from '../storage/values.js';
import { compileProjection } from '../query/projection.js';
import { typedForm } from '../numeric/types.js';
import { collectionName, type CommandContext, type CommandHandler } from './context.js';
import type { Shape } from './cursors.js';

const nonEmpty = (d: unknown): d is Document =>
  !!d && typeof d === 'object' && Object.keys(d).length > 0;

/**
 * Filter, sort, skip and limit through the planner (an index walk that stops after skip + limit
 * when an index serves the sort), and how each result is to be projected: `shape`, applied by
 * the caller to the documents it sends only (a cursor projects each batch as it builds it).
 * Without `shape` the documents are the results as they are.
 */
export function findResults(
  coll: Collection | undefined,
  opts: QueryOptions & { projection?: Document },
): { docs: Document[]; shape?: Shape } {
  if (!coll) return { docs: [] };
  const { docs } = executeFind(coll, opts);
  if (!nonEmpty(opts.projection)) return { docs };
  // MongoDB's find projection (query/projection.ts); computed fields fall back to mingo's.
  const project = compileProjection(opts.projection, opts.filter);
  if (project) return { docs, shape: (d) => project(typedForm(d)) };
  return { docs: projectWithMingo(docs, opts.projection) };
}

/** The results of a query, projected. */
export function runQuery(
  coll: Collection | undefined,
  opts: QueryOptions & { projection?: Document },
): Document[] {
  const { docs, shape } = findResults(coll, opts);
  return shape ? docs.map(shape) : docs;
}

const num = (v: unknown, field: string): number | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number') throw badValue(`Field '${field}' must be numeric`);
  if (field !== 'limit' && v < 0)
    throw badValue(`${field} value must be non-negative, but received: ${v}`);
  return v;
};

const find: CommandHandler = (cmd, ctx: CommandContext) => {
  const name = collectionName(cmd, 'find');
  const limit = num(cmd.limit, 'limit');
  const { docs, shape } = findResults(ctx.catalog.get(ctx.db, name), {
    filter: cmd.filter as Document | undefined,
    sort: cmd.sort as Document | undefined,
    projection: cmd.projection as Document | undefined,
    skip: num(cmd.skip, 'skip'),
    limit,
    hint: cmd.hint,
  });
  const singleBatch = cmd.singleBatch === true || (limit !== undefined && limit < 0);
  const limitReached = !!limit && docs.length >= Math.abs(limit);
  const batchSize = num(cmd.batchSize, 'batchSize');
  const ns = `${ctx.db}.${name}`;
  return ctx.cursors.first(ns, docs, batchSize, singleBatch, limitReached, shape);
};

const getMore: CommandHandler = (cmd, ctx) => {
  const id = Number(cmd.getMore);
  return ctx.cursors.more(
    id,
    `${ctx.db}.${collectionName(cmd, 'collection')}`,
    num(cmd.batchSize, 'batchSize'),
  );
};

const killCursors: CommandHandler = (cmd, ctx) => {
  const ids = ((cmd.cursors as unknown[]) ?? []).map(Number);
  const { killed, notFound } = ctx.cursors.kill(ids);
  return {
    cursorsKilled: killed,
    cursorsNotFound: notFound,
    cursorsAlive: [],
    cursorsUnknown: [],
    ok: 1,
  };
};

const count: CommandHandler = (cmd, ctx) => {
  const coll = ctx.catalog.get(ctx.db, collectionName(cmd, 'count'));
  const query = (cmd.query as Document | undefined) ?? {};
  let n = coll ? executeCount(coll, { filter: query, hint: cmd.hint }).n : 0;
  const skip = num(cmd.skip, 'skip') ?? 0;
  n = Math.max(0, n - skip);
  const limit = num(cmd.limit, 'limit');
  if (limit) n = Math.min(n, Math.abs(limit));
  return { n, ok: 1 };
};

const distinct: CommandHandler = (cmd, ctx) => {
  const key = cmd.key;
  if (typeof key !== 'string') throw badValue("'key' must be a string");
  const coll = ctx.catalog.get(ctx.db, collectionName(cmd, 'distinct'));
  const seen = new Map<string, unknown>();
  for (const d of coll ? coll.find((cmd.query as Document | undefined) ?? {}) : []) {
    for (const v of pathValues(d, key)) if (v !== undefined) seen.set(encodeKey(v), v);
  }
  return { values: [...seen.values()], ok: 1 };
};

export const readCommands: Record<string, CommandHandler> = {
  find,
  getMore,
  killCursors,
  count,
  distinct,
};
