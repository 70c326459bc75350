import 'mingo/init/system';
import { ComputeOptions, computeValue, Context, initOptions, type Options } from 'mingo/core';
import { numericTypeAt } from '../numeric/types.js';
import { bsonTypeOf } from '../query/bson-types.js';
import { Query } from 'mingo';
import * as booleanOperators from 'mingo/operators/expression/boolean';
import * as comparisonOperators from 'mingo/operators/expression/comparison';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import type { Document } from 'bson';
import { inAliasSpace } from '../safety/alias-space.js';
import {
  aliasDoc,
  aliasSpec,
  hasUnsafeKeys,
  mentionsUnsafe,
  unaliasOutput,
} from '../safety/unsafe-keys.js';
import { aliasDbRefFilter, dbRefsAsFields, mentionsDbRefField } from '../query/dbref-paths.js';
import { queryOverrides } from '../query/operators.js';
import { projectStage } from '../query/aggregation-project.js';
import { jsonSchemaValidator } from '../query/json-schema.js';
import { ARITHMETIC_EXPRESSIONS } from '../query/arithmetic-expressions.js';
import { GROUP_ACCUMULATORS, GROUP_EXPRESSIONS } from '../query/group-accumulators.js';

// `new Query(filter, options)` copies mingo's whole operator registry on every construction, even
// when handed a prebuilt ComputeOptions (initOptions → getOptions → Context.from, then four
// Object.assign merges of the operator tables): ~50 µs per query, paid by every find, update and
// findAndModify. The registry never changes after start-up, so build the exact context Query would
// build once, freeze it, and construct through Query's base class, which only reads its options.
// Namespace imports of mingo's CommonJS build also carry `default`/`__esModule`; keep operators only.
const ops = <T>(ns: object): T =>
  Object.fromEntries(
    Object.entries(ns).filter(([k, v]) => k.startsWith('$') && typeof v === 'function'),
  ) as T;

/**
 * The aggregation `$type` with MongoDB's names (mingo answers its own: `objectid`, `binary`,
 * `decimal128`, ...). A stored number reports the type it was stored with.
 */
const typeExpression = (obj: Document, expr: unknown, options: Options): string => {
  const v = computeValue(obj, expr, null, options) as unknown;
  if (typeof v === 'number' && typeof expr === 'string' && /^\$[^$]/.test(expr))
    return numericTypeAt(obj, expr.slice(1), v);
  return bsonTypeOf(v);
};
// Arithmetic with MongoDB's null/missing propagation, types and error codes.
const EXPRESSION_OVERRIDES = {
  $type: typeExpression,
  ...ARITHMETIC_EXPRESSIONS,
  ...GROUP_EXPRESSIONS,
} as never;
// Accumulators (also reached as array expressions) that answer null where mingo leaves a field out.
const ACCUMULATOR_OVERRIDES = GROUP_ACCUMULATORS as never;

const QUERY_OPTIONS: Options = initOptions({
  // `$jsonSchema` in filters and validators: MongoDB's dialect, our own (mingo needs one given).
  jsonSchemaValidator: jsonSchemaValidator as never,
  context: Context.init()
    .addExpressionOps(EXPRESSION_OVERRIDES)
    .addExpressionOps(ops(booleanOperators))
    .addExpressionOps(ops(comparisonOperators))
    .addAccumulatorOps(ACCUMULATOR_OVERRIDES)
    .addProjectionOps(ops(projectionOperators))
    // First: the first registration of a name wins.
    .addQueryOps(queryOverrides(compileQuery) as never)
    .addQueryOps(ops(queryOperators)),
});

type QueryCtor = new (filter: Record<string, unknown>, options: Options) => Query;
const QueryImpl = Object.getPrototypeOf(Query) as QueryCtor | undefined;
// Guard against a mingo upgrade changing the class layout: fall back to the (slower) public path.
const FAST_PATH =
  typeof QueryImpl === 'function' && typeof QueryImpl.prototype?.test === 'function';

const COMPUTE_OPTIONS = ComputeOptions.init(QUERY_OPTIONS);

export function queryOptions(): Partial<Options> {
  if (commandVariables)
    return ComputeOptions.init(queryOptionsNow()) as unknown as Partial<Options>;
  return COMPUTE_OPTIONS as unknown as Partial<Options>;
}

// The `let` variables of the command being run. Commands run synchronously one at a time (see
// the README), so they are the command's own while it runs.
let commandVariables: Record<string, unknown> | undefined;

/** Runs a command with its `let` option bound, as `$$name` in its filters and expressions. */
export function withVariables<T>(vars: unknown, fn: () => T): T {
  if (!vars || typeof vars !== 'object' || Array.isArray(vars)) return fn();
  const previous = commandVariables;
  // Each value is an expression without a document (constants, `$$NOW`, arithmetic...).
  const base = ComputeOptions.init(QUERY_OPTIONS);
  commandVariables = Object.fromEntries(
    Object.entries(vars as Document).map(([k, v]) => [k, computeValue({}, v, null, base)]),
  );
  try {
    return fn();
  } finally {
    commandVariables = previous;
  }
}

const queryOptionsNow = (): Options =>
  commandVariables ? { ...QUERY_OPTIONS, variables: commandVariables } : QUERY_OPTIONS;

const construct = (filter: Record<string, unknown>): Query => {
  const options = queryOptionsNow();
  return FAST_PATH ? new QueryImpl!(filter, options) : new Query(filter, options);
};

export function compileQuery(filter: Record<string, unknown>): Query {
  let spec = filter;
  const views: ((doc: Document) => Document)[] = [];
  // mingo resolves paths with plain property access: `constructor.name` would match every
  // document. The filter and each tested document are aliased alike (mingo's find calls `test`).
  if (mentionsUnsafe(spec)) {
    spec = aliasSpec(spec, 'query');
    views.push(aliasDoc);
  }
  if (mentionsDbRefField(spec)) {
    spec = aliasDbRefFilter(spec);
    views.push(dbRefsAsFields);
  }
  const query = construct(spec);
  if (views.length === 0) return query;
  const test = query.test.bind(query);
  query.test = (doc) => test(views.reduce((d, view) => view(d), doc as Document));
  return query;
}

/** A projection with computed fields, by mingo, with unsafe keys aliased (see `compileQuery`). */
export function projectWithMingo(docs: Document[], projection: Document): Document[] {
  if (!mentionsUnsafe(projection) && !docs.some(hasUnsafeKeys))
    return construct({}).find<Document>(docs, projection).all();
  const spec = aliasSpec(projection, 'pipeline');
  return inAliasSpace(() => construct({}).find<Document>(docs.map(aliasDoc), spec).all()).map(
    unaliasOutput,
  );
}

// Pipeline stages whose MongoDB semantics mingo does not have; every other operator falls back to
// mingo's global registry. A wrapper, so the cyclic import is only read when a stage runs.
const PIPELINE_OVERRIDES = Context.init()
  .addPipelineOps({
    $project: ((...args: Parameters<typeof projectStage>) => projectStage(...args)) as never,
  })
  .addExpressionOps(EXPRESSION_OVERRIDES)
  .addAccumulatorOps(ACCUMULATOR_OVERRIDES);

export function computeOptions(options: Partial<Options>): Partial<Options> {
  return ComputeOptions.init(
    initOptions({ context: PIPELINE_OVERRIDES, variables: commandVariables, ...options }),
  ) as unknown as Partial<Options>;
}
