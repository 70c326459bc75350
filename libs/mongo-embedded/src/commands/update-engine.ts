import { ObjectId, Timestamp, type Document } from 'bson';
import { Aggregator, ProcessingMode } from 'mingo';
import { compileQuery, computeOptions, queryOptions } from '../storage/mingo.js';
import { update as applyOperator } from 'mingo/updater';
import { CommandError, failedToParse, immutableField } from '../errors.js';
import { cloneDoc, encodeKey, isOperatorObject, setPath } from '../storage/values.js';
import { assertUpdatedSize } from '../update/limits.js';
import { assertPathViable, CREATING_OPERATORS } from '../update/paths.js';
import { INT64_SENSITIVE, applyInt64Operators } from '../update/int64.js';
import { applyPull } from '../update/pull.js';
import { setBinaries } from '../update/binary-set.js';
import { unsetDollarFields } from '../update/dollar-fields.js';
import { inAliasSpace } from '../safety/alias-space.js';
import { assertStorableId } from '../storage/collection.js';
import {
  aliasDoc,
  aliasSpec,
  defineField,
  hasUnsafeKeys,
  mentionsUnsafe,
  unaliasDoc,
} from '../safety/unsafe-keys.js';
import { carryNumericTypes, carryUnchangedNumericTypes, typedForm } from '../numeric/types.js';

const OPERATORS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$rename',
  '$push',
  '$pull',
  '$pullAll',
  '$addToSet',
  '$pop',
  '$bit',
  '$currentDate',
  '$setOnInsert',
]);

export type UpdateSpec = Document | Document[];

export interface UpdateResult {
  doc: Document;
  modified: boolean;
}

/** Resolves the legacy positional `$` against the array element the query matched. */
function resolvePositional(path: string, doc: Document, query: Document): string {
  const at = path.indexOf('.$');
  if (at < 0 || (path[at + 2] !== undefined && path[at + 2] !== '.')) return path;
  const prefix = path.slice(0, at);
  const arr = prefix
    .split('.')
    .reduce<unknown>((cur, k) => (cur as Document | undefined)?.[k], doc);
  if (!Array.isArray(arr))
    throw new CommandError(
      2,
      'BadValue',
      'The positional operator did not find the match needed from the query.',
    );
  const conds = Object.entries(query).filter(([k]) => k === prefix || k.startsWith(`${prefix}.`));
  const idx = arr.findIndex((el) =>
    conds.every(([k, c]) =>
      k === prefix
        ? compileQuery({ v: c }).test({ v: [el] })
        : compileQuery({ [k.slice(prefix.length + 1)]: c }).test(el as Document),
    ),
  );
  if (idx < 0 || conds.length === 0) {
    throw new CommandError(
      2,
      'BadValue',
      'The positional operator did not find the match needed from the query.',
    );
  }
  return `${prefix}.${idx}${path.slice(at + 2)}`;
}

function applyOperators(
  original: Document,
  doc: Document,
  spec: Document,
  arrayFilters: Document[] | undefined,
  query: Document,
  isInsert: boolean,
): boolean {
  let modified = false;
  for (const [op, rawArgs] of Object.entries(spec)) {
    if (!OPERATORS.has(op))
      throw failedToParse(
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    if (!rawArgs || typeof rawArgs !== 'object')
      throw failedToParse(
        `Modifiers operate on fields but we found type ${typeof rawArgs} instead.`,
      );
    let args = rawArgs as Document;
    let effectiveOp = op;
    if (op === '$setOnInsert') {
      if (!isInsert) continue;
      effectiveOp = '$set';
    } else if (op === '$currentDate') {
      // mingo stores epoch millis here; MongoDB stores a Date (or a Timestamp when asked).
      effectiveOp = '$set';
      args = Object.fromEntries(
        Object.entries(args).map(([k, v]) => [
          k,
          (v as Document)?.$type === 'timestamp'
            ? Timestamp.fromNumber(Math.floor(Date.now() / 1000) * 2 ** 32)
            : new Date(),
        ]),
      );
    }
    args = Object.fromEntries(
      Object.entries(args).map(([k, v]) => [resolvePositional(k, doc, query), v]),
    );
    for (const k of Object.keys(args)) {
      if (k === '_id' || k.startsWith('_id.')) {
        if (effectiveOp !== '$set' || encodeKey(args[k]) !== encodeKey(doc._id))
          throw immutableField('_id');
      }
      if (CREATING_OPERATORS.has(effectiveOp)) assertPathViable(doc, k);
      else if (effectiveOp === '$rename' && typeof args[k] === 'string')
        assertPathViable(doc, args[k] as string);
    }
    if (effectiveOp === '$set') {
      const binaries = setBinaries(doc, args);
      if (binaries.modified) modified = true;
      args = binaries.rest;
      if (Object.keys(args).length === 0) continue;
    }
    if (effectiveOp === '$unset') {
      const dollar = unsetDollarFields(doc, args);
      if (dollar.modified) modified = true;
      args = dollar.rest;
      if (Object.keys(args).length === 0) continue;
    }
    if (INT64_SENSITIVE.has(effectiveOp)) {
      const exact = applyInt64Operators(effectiveOp, args, doc, original);
      if (exact.modified) modified = true;
      args = exact.rest;
      if (Object.keys(args).length === 0) continue;
    }
    if ((op === '$pull' || op === '$pullAll') && !Object.keys(args).some((k) => k.includes('$'))) {
      if (applyPull(doc, op, args)) modified = true;
      continue;
    }
    try {
      const changed = applyOperator(
        doc,
        { [effectiveOp]: cloneDoc(args) } as never,
        arrayFilters,
        undefined,
        { cloneMode: 'deep', queryOptions: queryOptions() },
      );
      if (changed.length > 0 || op === '$currentDate') modified = true;
    } catch (err) {
      if (err instanceof CommandError) throw err;
      throw new CommandError(2, 'BadValue', (err as Error).message);
    }
  }
  return modified;
}

type UpdateOptions = { arrayFilters?: Document[]; query?: Document; isInsert?: boolean };

// An update statement applies the same spec, filter and array filters to every matched
// document: scan each of them once, not once per document (a filter can be a long `$in`).
const mentionCache = new WeakMap<object, boolean>();
const mentions = (v: unknown): boolean => {
  if (!v || typeof v !== 'object') return false;
  let found = mentionCache.get(v);
  if (found === undefined) mentionCache.set(v, (found = mentionsUnsafe(v)));
  return found;
};

const mentionedIn = (spec: UpdateSpec, opts: UpdateOptions): boolean =>
  mentions(spec) || mentions(opts.query) || mentions(opts.arrayFilters);

/**
 * Returns the updated copy of `doc`; the stored original is never touched. A document or an update
 * naming `__proto__`, `constructor` or `prototype` is updated with those keys aliased (mingo walks
 * paths with plain property access), so they are stored as fields and never reach a prototype.
 */
export function applyUpdate(
  original: Document,
  spec: UpdateSpec,
  opts: UpdateOptions = {},
): UpdateResult {
  if (!mentionedIn(spec, opts) && !hasUnsafeKeys(original))
    return applyUpdateDirect(original, spec, opts);
  const { doc, modified } = inAliasSpace(() =>
    applyUpdateDirect(aliasDoc(original), aliasUpdate(spec), aliasOptions(opts)),
  );
  const result = unaliasDoc(doc);
  if (Array.isArray(spec)) carryUnchangedNumericTypes(original, result);
  else carryNumericTypes(original, result);
  return { doc: result, modified };
}

const aliasUpdate = (spec: UpdateSpec): UpdateSpec =>
  aliasSpec(spec, Array.isArray(spec) ? 'pipeline' : 'update');

const aliasOptions = (opts: UpdateOptions): UpdateOptions => ({
  ...opts,
  query: opts.query && aliasSpec(opts.query, 'query'),
  arrayFilters: opts.arrayFilters && aliasSpec(opts.arrayFilters, 'query'),
});

function applyUpdateDirect(
  original: Document,
  spec: UpdateSpec,
  opts: UpdateOptions,
): UpdateResult {
  const query = opts.query ?? {};
  if (Array.isArray(spec)) {
    const [doc] = new Aggregator(
      spec,
      computeOptions({ processingMode: ProcessingMode.CLONE_INPUT }),
    ).run([original]) as Document[];
    if (!doc) throw immutableField('_id');
    // A pipeline's result without `_id` (`$replaceRoot` with a subdocument) keeps the original's.
    if (doc._id === undefined && original._id !== undefined) restoreIdFirst(doc, original._id);
    if (encodeKey(doc._id) !== encodeKey(original._id)) throw immutableField('_id');
    carryUnchangedNumericTypes(original, doc);
    return { doc, modified: encodeKey(doc) !== encodeKey(original) };
  }
  const keys = Object.keys(spec);
  if (keys.length > 0 && keys.every((k) => k.startsWith('$'))) {
    const doc = cloneDoc(original);
    const modified = applyOperators(original, doc, spec, opts.arrayFilters, query, !!opts.isInsert);
    carryNumericTypes(original, doc);
    if (modified) assertUpdatedSize(typedForm(doc));
    return { doc, modified };
  }
  if (keys.some((k) => k.startsWith('$')))
    throw failedToParse('Replacement document cannot mix operators and fields');
  if (
    spec._id !== undefined &&
    original._id !== undefined &&
    encodeKey(spec._id) !== encodeKey(original._id)
  ) {
    throw immutableField('_id');
  }
  const doc: Document = { _id: original._id, ...cloneDoc(spec) };
  if (doc._id === undefined) delete doc._id;
  assertUpdatedSize(doc);
  return { doc, modified: encodeKey(doc) !== encodeKey(original) };
}

function restoreIdFirst(doc: Document, id: unknown): void {
  const fields = Object.entries(doc);
  for (const [k] of fields) delete doc[k];
  doc._id = id;
  for (const [k, v] of fields) defineField(doc, k, v);
}

/** Seeds an upserted document from the query's equality predicates, as MongoDB does. */
function seedFromQuery(query: Document, into: Document): void {
  for (const [k, v] of Object.entries(query)) {
    if (k === '$and' && Array.isArray(v)) v.forEach((sub) => seedFromQuery(sub as Document, into));
    if (k.startsWith('$')) continue;
    if (isOperatorObject(v)) {
      if ('$eq' in v) setPath(into, k, cloneDoc(v.$eq));
    } else if (!(v instanceof RegExp)) setPath(into, k, cloneDoc(v));
  }
}

export function buildUpsert(
  query: Document,
  spec: UpdateSpec,
  arrayFilters?: Document[],
): Document {
  if (!mentionedIn(spec, { query, arrayFilters }))
    return buildUpsertDirect(query, spec, arrayFilters);
  const doc = inAliasSpace(() => {
    const aliased = aliasOptions({ query, arrayFilters });
    return buildUpsertDirect(aliased.query!, aliasUpdate(spec), aliased.arrayFilters);
  });
  return unaliasDoc(doc);
}

function buildUpsertDirect(query: Document, spec: UpdateSpec, arrayFilters?: Document[]): Document {
  const base: Document = {};
  const isOperatorUpdate =
    !Array.isArray(spec) && Object.keys(spec).every((k) => k.startsWith('$'));
  if (Array.isArray(spec) || isOperatorUpdate) seedFromQuery(query, base);
  else if (query._id !== undefined && !isOperatorObject(query._id)) base._id = query._id;
  const { doc } = applyUpdateDirect(base, spec, { arrayFilters, query, isInsert: true });
  // `{_id: null}` seeds a null _id, as MongoDB does; only a missing one is generated.
  const { _id, ...rest } = doc;
  assertStorableId(_id);
  return { _id: _id === undefined ? new ObjectId() : _id, ...rest };
}
