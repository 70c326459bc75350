import type { Document } from 'bson';
import { badValue, CommandError } from '../errors.js';
import type { Catalog } from '../storage/catalog.js';
import { encodeKey } from '../storage/values.js';

/** MongoDB's NotImplemented (238), naming what this server does not do, instead of a silent success. */
export const notImplemented = (feature: string) =>
  new CommandError(238, 'NotImplemented', `${feature} is not supported by mongo-embedded`);

// Stages mingo evaluates (a real implementation, not a stub). `$out` and `$merge` exist in mingo
// but write into an in-memory array: a final `$out` is this server's own (out-stage.ts), `$merge`
// is refused with the stages MongoDB has and this does not.
const SUPPORTED_STAGES = new Set([
  '$addFields',
  '$bucket',
  '$bucketAuto',
  '$count',
  '$densify',
  '$facet',
  '$fill',
  '$graphLookup',
  '$group',
  '$limit',
  '$lookup',
  '$match',
  '$project',
  '$redact',
  '$replaceRoot',
  '$replaceWith',
  '$sample',
  '$set',
  '$setWindowFields',
  '$skip',
  '$sort',
  '$sortByCount',
  '$unionWith',
  '$unset',
  '$unwind',
]);
const MONGODB_ONLY_STAGES = new Set([
  '$merge',
  '$changeStream',
  '$changeStreamSplitLargeEvent',
  '$collStats',
  '$currentOp',
  '$documents',
  '$geoNear',
  '$indexStats',
  '$listLocalSessions',
  '$listSampledQueries',
  '$listSearchIndexes',
  '$listSessions',
  '$planCacheStats',
  '$search',
  '$searchMeta',
  '$shardedDataDistribution',
  '$vectorSearch',
]);

/** Query and expression operators that need a JavaScript engine, a text index or a geo index. */
const UNSUPPORTED_OPERATORS: Record<string, string> = {
  $where: '$where (server-side JavaScript)',
  $function: '$function (server-side JavaScript)',
  $accumulator: '$accumulator (server-side JavaScript)',
  $text: '$text (text indexes)',
  $near: '$near (geospatial indexes)',
  $nearSphere: '$nearSphere (geospatial indexes)',
  $geoWithin: '$geoWithin (geospatial queries)',
  $geoIntersects: '$geoIntersects (geospatial queries)',
};

const UNSUPPORTED_COLLECTION_OPTIONS: Record<string, string> = {
  timeseries: 'time-series collections',
  clusteredIndex: 'clustered collections',
  viewOn: 'views',
  changeStreamPreAndPostImages: 'change streams',
};

const INDEX_TYPES: Record<string, string> = {
  text: 'text indexes',
  '2d': 'geospatial (2d) indexes',
  '2dsphere': 'geospatial (2dsphere) indexes',
  geoHaystack: 'geoHaystack indexes',
  hashed: 'hashed indexes',
};

/** Commands MongoDB has and this server refuses by name (anything else unknown is CommandNotFound). */
export const UNSUPPORTED_COMMANDS = [
  'mapReduce',
  'convertToCapped',
  'cloneCollectionAsCapped',
  'createSearchIndexes',
  'shardCollection',
  'replSetGetStatus',
  // No users (there is no authentication).
  'createUser',
  'updateUser',
  'dropUser',
  'usersInfo',
  'createRole',
  'dropRole',
];

const isPlain = (v: unknown): v is Document =>
  !!v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

function rejectOperators(v: unknown): void {
  if (Array.isArray(v)) for (const el of v) rejectOperators(el);
  else if (isPlain(v))
    for (const k in v) {
      if (k.charCodeAt(0) === 36 /* $ */ && Object.hasOwn(UNSUPPORTED_OPERATORS, k))
        throw notImplemented(UNSUPPORTED_OPERATORS[k]!);
      const sub = v[k];
      if (sub !== null && typeof sub === 'object') rejectOperators(sub);
    }
}

/**
 * Only the simple (binary) collation is implemented; anything else would be ignored, so a
 * case-insensitive query or unique index would silently behave differently from MongoDB.
 */
function rejectCollation(collation: unknown): void {
  if (collation === undefined || collation === null) return;
  if (isPlain(collation) && collation.locale === 'simple') return;
  throw badValue(
    `collation ${JSON.stringify(collation)} is not supported by mongo-embedded: only { locale: 'simple' } (binary comparison) is`,
  );
}

function validatePipeline(pipeline: unknown, nested = false): void {
  if (!Array.isArray(pipeline)) return;
  for (const [i, stage] of pipeline.entries()) {
    const keys = isPlain(stage) ? Object.keys(stage) : [];
    if (keys.length !== 1)
      throw new CommandError(
        40323,
        'Location40323',
        'A pipeline stage specification object must contain exactly one field.',
      );
    const name = keys[0]!;
    if (name === '$out') {
      if (nested) throw notImplemented('The $out aggregation stage inside another stage');
      if (i !== pipeline.length - 1)
        throw new CommandError(
          40601,
          'Location40601',
          '$out can only be the final stage in the pipeline',
        );
      continue;
    }
    if (MONGODB_ONLY_STAGES.has(name)) throw notImplemented(`The ${name} aggregation stage`);
    if (!SUPPORTED_STAGES.has(name))
      throw new CommandError(40324, 'Location40324', `Unrecognized pipeline stage name: '${name}'`);
    const body = (stage as Document)[name] as Document;
    if (name === '$lookup' || name === '$unionWith') validatePipeline(body?.pipeline, true);
    if (name === '$facet' && isPlain(body))
      for (const sub of Object.values(body)) validatePipeline(sub, true);
  }
  rejectOperators(pipeline);
}

/** `hint` must name an existing index, by name or key pattern, as MongoDB checks when it plans. */
function validateHint(hint: unknown, catalog: Catalog, db: string, coll: unknown): void {
  if (hint === undefined || hint === null || typeof coll !== 'string') return;
  const collection = catalog.get(db, coll);
  if (!collection) return; // MongoDB answers an empty result on a missing collection
  if (isPlain(hint) && Object.keys(hint).length === 0) return;
  if (isPlain(hint) && Object.keys(hint)[0] === '$natural') return;
  // A hidden index is invisible to the planner, so hinting it is the same BadValue.
  const found =
    typeof hint === 'string'
      ? !!collection.indexes.get(hint) && !collection.indexes.get(hint)!.spec.hidden
      : [...collection.indexes.values()].some(
          (i) => !i.spec.hidden && encodeKey(i.spec.key) === encodeKey(hint),
        );
  if (!found) throw badValue('hint provided does not correspond to an existing index');
}

// What MongoDB 7 accepts in a partial index's filter (anything else is 67 CannotCreateIndex).
const PARTIAL_OPERATORS = new Set(['$eq', '$gt', '$gte', '$lt', '$lte', '$type', '$in', '$exists']);

function checkPartialFilter(filter: unknown, depth = 0): void {
  const refuse = (what: string) => {
    throw new CommandError(
      67,
      'CannotCreateIndex',
      `Expression not supported in partial index: ${what}`,
    );
  };
  if (!isPlain(filter)) return refuse(JSON.stringify(filter));
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' || k === '$or') {
      if (depth > 0 && k === '$or') refuse(k);
      for (const sub of Array.isArray(v) ? v : []) checkPartialFilter(sub, depth + 1);
      continue;
    }
    if (k.startsWith('$')) refuse(k);
    if (!isPlain(v) || !Object.keys(v).some((op) => op.startsWith('$'))) continue; // equality
    for (const [op, arg] of Object.entries(v)) {
      if (!PARTIAL_OPERATORS.has(op)) refuse(`${k} ${op}`);
      if (op === '$exists' && arg !== true) refuse(`${k} $exists: ${JSON.stringify(arg)}`);
    }
  }
}

/**
 * Refusals checked before a command runs: what MongoDB refuses, and what this server does not
 * implement, answered with an error rather than ignored. Nothing has been written when these throw.
 */
export function validateCommand(name: string, cmd: Document, catalog: Catalog, db: string): void {
  const target = cmd[name];
  switch (name) {
    case 'find':
    case 'count':
    case 'distinct':
    case 'findAndModify':
    case 'findandmodify':
      rejectCollation(cmd.collation);
      rejectOperators(cmd.filter ?? cmd.query);
      validateHint(cmd.hint, catalog, db, target);
      return;
    case 'aggregate':
      rejectCollation(cmd.collation);
      validatePipeline(cmd.pipeline);
      validateHint(cmd.hint, catalog, db, target);
      return;
    case 'update':
    case 'delete':
      for (const st of ((name === 'update' ? cmd.updates : cmd.deletes) as Document[]) ?? []) {
        if (!isPlain(st)) continue;
        rejectCollation(st.collation);
        rejectOperators(st.q);
        validateHint(st.hint, catalog, db, target);
      }
      return;
    case 'create':
      rejectCollation(cmd.collation);
      for (const [option, feature] of Object.entries(UNSUPPORTED_COLLECTION_OPTIONS))
        if (cmd[option] !== undefined && cmd[option] !== false) throw notImplemented(feature);
      return;
    case 'createIndexes':
      for (const spec of (cmd.indexes as Document[]) ?? []) {
        if (!isPlain(spec)) continue;
        rejectCollation(spec.collation);
        if (spec.partialFilterExpression !== undefined)
          checkPartialFilter(spec.partialFilterExpression);
        for (const [field, type] of Object.entries(isPlain(spec.key) ? spec.key : {})) {
          if (field === '$**' || field.endsWith('.$**')) throw notImplemented('wildcard indexes');
          const feature = typeof type === 'string' ? INDEX_TYPES[type] : undefined;
          if (feature) throw notImplemented(feature);
        }
      }
      return;
  }
}
