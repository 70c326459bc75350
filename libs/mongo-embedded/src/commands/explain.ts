import { hintedIndex } from '../storage/hinted.js';
import type { Document } from 'bson';
import { badValue } from '../errors.js';
import type { Collection } from '../storage/collection.js';
import { coveredGroup } from '../storage/covered-group.js';
import { executeCount, executeFind, type ExecStats } from '../storage/query-exec.js';
import { describeBounds, sortFields } from '../storage/query-planner.js';
import { collectionName, type CommandHandler } from './context.js';

export interface LeadingStages {
  /** Input of the rest of the pipeline. */
  docs: Document[];
  /** Stages already applied to `docs`. */
  consumed: number;
  stats: ExecStats;
  /** The find the leading stages amounted to, for explain. */
  query: { filter?: Document; sort?: Document; skip?: number; limit?: number };
}

const EMPTY: ExecStats = {
  plan: undefined,
  keysExamined: 0,
  docsExamined: 0,
  inMemorySort: false,
  countScan: false,
};

/**
 * Runs the leading stages an index can serve: a covered `$match` + `$group`/`$count`, or
 * `$match` / `$sort` / `$skip` / `$limit` as one planned find (stopping after skip + limit when the
 * index serves the sort). The rest of the pipeline runs in mingo on what this returns.
 */
export function leadingStages(
  coll: Collection | undefined,
  pipeline: Document[],
  hint: unknown,
  explain = false,
): LeadingStages {
  if (!coll) return { docs: [], consumed: 0, stats: EMPTY, query: {} };
  const hinted = !explain && !!hintedIndex(coll, hint);
  const covered = hinted ? undefined : coveredGroup(coll, pipeline, hint);
  if (covered) return { ...covered, query: { filter: pipeline[0]!.$match as Document } };
  const query: LeadingStages['query'] = {};
  let i = 0;
  if (pipeline[i]?.$match) query.filter = pipeline[i++]!.$match as Document;
  const sort = pipeline[i]?.$sort as Document | undefined;
  if (sort && sortFields(sort)) {
    query.sort = sort;
    i++;
    if (typeof pipeline[i]?.$skip === 'number') query.skip = pipeline[i++]!.$skip as number;
    if (typeof pipeline[i]?.$limit === 'number') query.limit = pipeline[i++]!.$limit as number;
  }
  if (i === 0 && !hinted) {
    const docs = [...coll.docs.values()];
    return { docs, consumed: 0, stats: { ...EMPTY, docsExamined: docs.length }, query };
  }
  const { docs, stats } = executeFind(coll, { ...query, hint, explain });
  return { docs, consumed: i, stats, query };
}

function indexScan(stats: ExecStats): Document {
  const plan = stats.plan!;
  const { spec } = plan.index;
  return {
    stage: stats.countScan ? 'COUNT_SCAN' : 'IXSCAN',
    keyPattern: spec.key,
    indexName: spec.name,
    isMultiKey: plan.index.multikey,
    isUnique: !!spec.unique,
    isSparse: !!spec.sparse,
    isPartial: !!spec.partialFilterExpression,
    direction: plan.direction === 1 ? 'forward' : 'backward',
    indexBounds: describeBounds(plan),
    keysExamined: stats.keysExamined,
  };
}

/**
 * The index scan under a FETCH: one IXSCAN, or, when the intervals were merged by the sort, a
 * SORT_MERGE over one IXSCAN per interval (MongoDB's exploded plan), each with its own keys.
 */
function fetchInput(stats: ExecStats, query: LeadingStages['query']): Document {
  const scan = indexScan(stats);
  const perInterval = stats.mergedKeys;
  if (!perInterval) return scan;
  const plan = stats.plan!;
  return {
    stage: 'SORT_MERGE',
    sortPattern: query.sort,
    inputStages: plan.intervals.map((iv, i) => ({
      ...scan,
      indexBounds: describeBounds(plan, iv),
      keysExamined: perInterval[i] ?? 0,
    })),
  };
}

/**
 * The winning plan as MongoDB prints it: COLLSCAN or (COUNT_SCAN | FETCH ← (IXSCAN | SORT_MERGE ←
 * IXSCAN…)), then SORT/SKIP/LIMIT.
 */
function winningPlan(stats: ExecStats, query: LeadingStages['query'], root?: string): Document {
  let stage: Document = !stats.plan
    ? { stage: 'COLLSCAN', direction: 'forward', docsExamined: stats.docsExamined }
    : stats.countScan
      ? indexScan(stats)
      : { stage: 'FETCH', docsExamined: stats.docsExamined, inputStage: fetchInput(stats, query) };
  if (stats.inMemorySort) stage = { stage: 'SORT', sortPattern: query.sort, inputStage: stage };
  if (query.skip) stage = { stage: 'SKIP', skipAmount: query.skip, inputStage: stage };
  if (query.limit)
    stage = { stage: 'LIMIT', limitAmount: Math.abs(query.limit), inputStage: stage };
  return root ? { stage: root, inputStage: stage } : stage;
}

function explainDocument(
  ns: string,
  query: LeadingStages['query'],
  stats: ExecStats,
  nReturned: number,
  millis: number,
  root?: string,
): Document {
  const plan = winningPlan(stats, query, root);
  return {
    explainVersion: '1',
    queryPlanner: {
      namespace: ns,
      indexFilterSet: false,
      parsedQuery: query.filter ?? {},
      // A sort the index would serve by merging more than 200 intervals is done in memory.
      maxScansToExplodeReached: !!stats.plan?.maxScansToExplodeReached,
      winningPlan: plan,
      rejectedPlans: [],
    },
    executionStats: {
      executionSuccess: true,
      nReturned,
      executionTimeMillis: Math.round(millis),
      totalKeysExamined: stats.keysExamined,
      totalDocsExamined: stats.docsExamined,
      executionStages: plan,
    },
    ok: 1,
  };
}

export function explainAggregate(ns: string, pipeline: Document[], lead: LeadingStages): Document {
  const doc = explainDocument(ns, lead.query, lead.stats, lead.docs.length, 0);
  return {
    ...doc,
    // As MongoDB prints it: the stages the query layer ran become one `$cursor` stage holding
    // their plan, followed by the stages the pipeline ran.
    stages: [
      { $cursor: { queryPlanner: doc.queryPlanner, executionStats: doc.executionStats } },
      ...pipeline.slice(lead.consumed),
    ],
  };
}

const explain: CommandHandler = (cmd, ctx) => {
  const inner = cmd.explain as Document | undefined;
  const kind = inner && typeof inner === 'object' ? Object.keys(inner)[0] : undefined;
  if (!inner || !kind) throw badValue('explain command requires a nested object');
  const name = collectionName(inner, kind);
  const coll = ctx.catalog.get(ctx.db, name);
  const ns = `${ctx.db}.${name}`;
  checkVerbosity(cmd.verbosity);
  const t0 = performance.now();
  if (kind === 'find') {
    const query = {
      filter: inner.filter as Document | undefined,
      sort: inner.sort as Document | undefined,
      skip: inner.skip as number | undefined,
      limit: inner.limit as number | undefined,
    };
    const { docs, stats } = coll
      ? executeFind(coll, { ...query, hint: inner.hint, explain: true })
      : { docs: [], stats: EMPTY };
    return explainDocument(ns, query, stats, docs.length, performance.now() - t0);
  }
  if (kind === 'count') {
    const filter = (inner.query as Document | undefined) ?? {};
    const { n, stats } = coll
      ? executeCount(coll, { filter, hint: inner.hint })
      : { n: 0, stats: EMPTY };
    return explainDocument(ns, { filter }, stats, n, performance.now() - t0, 'COUNT');
  }
  if (kind === 'aggregate') {
    const pipeline = (inner.pipeline as Document[] | undefined) ?? [];
    return explainAggregate(ns, pipeline, leadingStages(coll, pipeline, inner.hint, true));
  }
  const planned = plannedQuery(kind, inner);
  if (!planned) throw badValue(`explain is not supported for '${kind}'`);
  // Nothing is written: the plan is the query the command would run, under its root stage.
  const { docs, stats } = coll
    ? executeFind(coll, { ...planned.query, hint: planned.hint, explain: true })
    : { docs: [], stats: EMPTY };
  const n = planned.root === 'PROJECTION_DEFAULT' ? docs.length : 0;
  return explainDocument(ns, planned.query, stats, n, performance.now() - t0, planned.root);
};

const VERBOSITIES = new Set(['queryPlanner', 'executionStats', 'allPlansExecution']);

function checkVerbosity(verbosity: unknown): void {
  if (verbosity === undefined || VERBOSITIES.has(verbosity as string)) return;
  throw badValue(
    `Enumeration value '${String(verbosity)}' for field 'explain.verbosity' is not a valid value.`,
  );
}

interface PlannedQuery {
  query: LeadingStages['query'];
  hint: unknown;
  root: string;
}

/** The query a write or a `distinct` runs, and the stage MongoDB's plan puts over it. */
function plannedQuery(kind: string, inner: Document): PlannedQuery | undefined {
  const first = (list: unknown): Document =>
    (Array.isArray(list) && list[0] && typeof list[0] === 'object' ? list[0] : {}) as Document;
  switch (kind) {
    case 'update': {
      const st = first(inner.updates);
      const limit = st.multi === true ? undefined : 1;
      return { query: { filter: st.q as Document, limit }, hint: st.hint, root: 'UPDATE' };
    }
    case 'delete': {
      const st = first(inner.deletes);
      const limit = st.limit === 1 ? 1 : undefined;
      return { query: { filter: st.q as Document, limit }, hint: st.hint, root: 'DELETE' };
    }
    case 'findAndModify':
    case 'findandmodify': {
      const query = { filter: inner.query as Document, sort: inner.sort as Document, limit: 1 };
      return { query, hint: inner.hint, root: inner.remove === true ? 'DELETE' : 'UPDATE' };
    }
    case 'distinct':
      return {
        query: { filter: inner.query as Document },
        hint: inner.hint,
        root: 'PROJECTION_DEFAULT',
      };
    default:
      return undefined;
  }
}

export const explainCommands: Record<string, CommandHandler> = { explain };
