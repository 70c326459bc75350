import { defineField } from '../safety/unsafe-keys.js';
import type { Document } from 'bson';
import { bracketOf, compareBson, isBoundValue } from './bson-order.js';
import type { IndexStore } from './index-store.js';
import { isOperatorObject } from './values.js';

/** What one field's predicates allow an index to bound: a set of points or one typed range. */
export type FieldBounds =
  | { kind: 'points'; values: unknown[] }
  | { kind: 'range'; low: unknown; lowInc: boolean; high: unknown; highInc: boolean };

/** One contiguous stretch of an index, as key prefixes in index order. */
export interface Interval {
  start: unknown[];
  startInc: boolean;
  end: unknown[];
  endInc: boolean;
}

export interface SortField {
  field: string;
  dir: 1 | -1;
}

export interface IndexPlan {
  index: IndexStore;
  /** In index order; walked in `direction`. */
  intervals: Interval[];
  /** Walk forwards (1) or backwards (-1): the direction that yields the requested sort. */
  direction: 1 | -1;
  /** The walk yields documents in the requested sort order (a served sort), after merging intervals. */
  sortServed: boolean;
  /**
   * The served sort needs the intervals merged by the sort keys (MongoDB's SORT_MERGE): a field
   * with several points is not in the sort. Otherwise the intervals, walked one after the other in
   * `direction`, are already in sort order. Never more than `MAX_MERGE_RUNS` intervals.
   */
  merge: boolean;
  /**
   * Some index (this plan's or another candidate's) would have served the sort by merging more than
   * `MAX_MERGE_RUNS` intervals and did not (MongoDB's explain flag of the same name).
   */
  maxScansToExplodeReached: boolean;
  /** The bounds alone decide the filter: no document needs reading to know it matches. */
  exact: boolean;
  /** How many leading key fields have point bounds, and the range on the next one if any. */
  eqLen: number;
  range?: Extract<FieldBounds, { kind: 'range' }>;
  fieldBounds: Map<string, { bounds?: FieldBounds; complete: boolean }>;
}

/**
 * Most point intervals (the product of the `$in` sizes over the equality prefix) an index scan is
 * given: past it the prefix stops at the field that would exceed it, and the remaining fields are
 * checked on the documents. MongoDB bounds each field separately and never builds the product; here
 * every interval is an object, so `$in` × `$in` is capped (200,000 intervals ≈ tens of MiB).
 */
export const MAX_POINT_INTERVALS = 200_000;

/**
 * Most intervals merged to serve a sort (MongoDB's `internalQueryMaxScansToExplode`). Past it the
 * index still bounds the scan and the matches are sorted in memory, as MongoDB does.
 */
export const MAX_MERGE_RUNS = 200;

function pointsOf(values: unknown[]): unknown[] {
  const sorted = [...values].sort(compareBson);
  return sorted.filter((v, i) => i === 0 || compareBson(sorted[i - 1], v) !== 0);
}

/**
 * Equality on `null`, which matches a null or missing field: both are keyed as null, so the point
 * `[null, null]` bounds the scan as MongoDB's does. Never complete, so every document found is
 * still matched (`planIndex` also keeps it off multikey indexes, whose missing elements have no
 * key).
 */
const nullPoint = (): { bounds: FieldBounds; complete: boolean } => ({
  bounds: { kind: 'points', values: [null] },
  complete: false,
});

/** Bounds for one field's predicate, and whether they express it completely. */
export function boundsFor(pred: unknown): { bounds?: FieldBounds; complete: boolean } {
  if (pred === null) return nullPoint();
  if (!isOperatorObject(pred))
    return isBoundValue(pred)
      ? { bounds: { kind: 'points', values: [pred] }, complete: true }
      : { complete: false };
  let complete = true;
  let points: unknown[] | undefined;
  let range: Extract<FieldBounds, { kind: 'range' }> | undefined;
  for (const [op, arg] of Object.entries(pred)) {
    if (op === '$eq' && isBoundValue(arg)) points = points ? ((complete = false), points) : [arg];
    else if (op === '$eq' && arg === null) [points, complete] = [points ?? [null], false];
    else if (op === '$in' && Array.isArray(arg) && arg.every(isBoundValue))
      points = points ? ((complete = false), points) : pointsOf(arg);
    else if (
      (op === '$gt' || op === '$gte' || op === '$lt' || op === '$lte') &&
      isBoundValue(arg)
    ) {
      const { low, high } = bracketOf(arg);
      range ??= { kind: 'range', low, lowInc: false, high, highInc: false };
      // Each comparison keeps to its type bracket: mixed types in one predicate match nothing.
      if (compareBson(range.low, arg) > 0 || compareBson(range.high, arg) < 0) {
        complete = false;
        continue;
      }
      if (op === '$gt' || op === '$gte') {
        const c = compareBson(arg, range.low);
        if (c > 0 || (c === 0 && op === '$gt')) [range.low, range.lowInc] = [arg, op === '$gte'];
      } else {
        const c = compareBson(arg, range.high);
        if (c < 0 || (c === 0 && op === '$lt')) [range.high, range.highInc] = [arg, op === '$lte'];
      }
    } else complete = false;
  }
  if (points) return { bounds: { kind: 'points', values: points }, complete: complete && !range };
  return range ? { bounds: range, complete } : { complete: false };
}

/** Top-level conjuncts by field (flattening `$and`); `open` is set when something else filters. */
function conjuncts(filter: Document): { byField: Map<string, unknown[]>; open: boolean } {
  const byField = new Map<string, unknown[]>();
  let open = false;
  const visit = (f: Document) => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) for (const sub of v) visit(sub as Document);
      else if (k.startsWith('$')) open = true;
      else byField.set(k, [...(byField.get(k) ?? []), v]);
    }
  };
  visit(filter);
  return { byField, open };
}

/** The requested sort as fields with directions; undefined when it is not a plain key sort. */
export function sortFields(sort: Document | undefined): SortField[] | undefined {
  if (!sort) return [];
  const out: SortField[] = [];
  for (const [field, dir] of Object.entries(sort)) {
    if ((dir !== 1 && dir !== -1) || field.startsWith('$')) return undefined;
    out.push({ field, dir });
  }
  return out;
}

const show = (v: unknown): string =>
  v instanceof Date ? `new Date(${v.getTime()})` : typeof v === 'string' ? `"${v}"` : String(v);

interface Candidate {
  plan: IndexPlan;
  score: number;
}

function planIndex(
  index: IndexStore,
  fieldBounds: Map<string, { bounds?: FieldBounds; complete: boolean }>,
  sort: SortField[] | undefined,
  open: boolean,
): Candidate | undefined {
  const { fields, dirs } = index;
  // Neither bounded nor first in the sort: this index cannot help (the common case, decided early).
  if (!fieldBounds.get(fields[0]!)?.bounds && !sort?.some((s) => s.field === fields[0]))
    return undefined;
  // Equality (points) on a prefix of the key, then at most one range.
  let eqLen = 0;
  let product = 1;
  while (eqLen < fields.length) {
    const b = fieldBounds.get(fields[eqLen]!)?.bounds;
    if (b?.kind !== 'points' || product * b.values.length > MAX_POINT_INTERVALS) break;
    if (index.multikey && b.values.includes(null)) break;
    product *= b.values.length;
    eqLen++;
  }
  const next = fieldBounds.get(fields[eqLen] ?? '')?.bounds;
  const range = next?.kind === 'range' ? next : undefined;
  const bound = new Set(fields.slice(0, eqLen + (range ? 1 : 0)));
  const exact =
    !open && !index.multikey && [...fieldBounds].every(([f, b]) => b.complete && bound.has(f));

  // The sort is served when, after dropping fields fixed to one value, it walks the key in order.
  let sortServed = !!sort && !index.multikey;
  let direction: 1 | -1 = 1;
  if (sortServed && sort) {
    let p = 0;
    let ratio: number | undefined;
    const single = (i: number) => {
      const b = fieldBounds.get(fields[i]!)?.bounds;
      return i < eqLen && b?.kind === 'points' && b.values.length === 1;
    };
    for (const { field, dir } of sort) {
      const at = fields.indexOf(field);
      if (at >= 0 && single(at)) continue;
      while (p < eqLen && fields[p] !== field) p++;
      if (fields[p] !== field) {
        sortServed = false;
        break;
      }
      const r = dir * dirs[p]!;
      if (ratio !== undefined && r !== ratio) {
        sortServed = false;
        break;
      }
      ratio = r;
      p++;
    }
    direction = (ratio ?? 1) as 1 | -1;
  }
  // Several intervals whose order the sort does not follow (a multi-point field left out of it)
  // are merged by the sort, up to MAX_MERGE_RUNS of them; past that the sort is done in memory.
  let merge = false;
  let maxScansToExplodeReached = false;
  if (sortServed && sort!.length > 0 && product > 1) {
    const sorted = new Set(sort!.map((s) => s.field));
    for (let i = 0; i < eqLen && !merge; i++) {
      const b = fieldBounds.get(fields[i]!)!.bounds as { values: unknown[] };
      merge = b.values.length > 1 && !sorted.has(fields[i]!);
    }
    if (merge && product > MAX_MERGE_RUNS) {
      [sortServed, merge, direction] = [false, false, 1];
      maxScansToExplodeReached = true;
    }
  }
  const useful = eqLen > 0 || range || (sortServed && sort!.length > 0);
  if (!useful) return undefined;

  // A unique index fixed on every field finds at most one document per point: MongoDB's trial run
  // ends on it first, whatever range another index bounds (one point wins outright).
  const fixedUnique = index.spec.unique && eqLen === fields.length;
  // Any index fixed on every field whose points hold a trial run's worth of keys or fewer: its
  // plan reaches the end within MongoDB's trial run, before a plan over a range does (a look-up by
  // ids on `{tenant_id, id}` against a queue's range index).
  const fixedFew =
    !fixedUnique &&
    eqLen === fields.length &&
    product <= TRIAL_RESULTS &&
    keysIn(index, eqLen, fieldBounds) <= TRIAL_RESULTS;
  const score =
    10 * eqLen +
    (range ? 5 : 0) +
    (sortServed && sort!.length > 0 ? 25 : 0) +
    (fixedUnique ? (product === 1 ? 1000 : 500) : 0) +
    (fixedFew ? 400 : 0) +
    (exact ? 1 : 0) -
    fields.length / 100;
  return {
    plan: {
      index,
      intervals: [],
      direction,
      sortServed,
      merge,
      maxScansToExplodeReached,
      exact,
      eqLen,
      range,
      fieldBounds,
    },
    score,
  };
}

/** MongoDB's trial run ends once a plan has returned this many documents (or reached its end). */
const TRIAL_RESULTS = 101;

/** How many keys the point intervals of an index fixed on its first `eqLen` fields hold. */
function keysIn(
  index: IndexStore,
  eqLen: number,
  fieldBounds: Map<string, { bounds?: FieldBounds }>,
): number {
  let keys = 0;
  for (const iv of buildIntervals(index, eqLen, undefined, fieldBounds)) {
    keys += index.ordered.countBetween(
      index.ordered.lowerBound(iv.start, iv.startInc),
      index.ordered.upperBound(iv.end, iv.endInc),
    );
    if (keys > TRIAL_RESULTS) break;
  }
  return keys;
}

/**
 * Per index field, the plan's bounds as MongoDB's explain prints them; with `interval`, the bounds
 * of that one interval (its points on the equality prefix), as a SORT_MERGE's index scans print them.
 */
export function describeBounds(plan: IndexPlan, interval?: Interval): Record<string, string[]> {
  const { fields, dirs } = plan.index;
  const bounds: Record<string, string[]> = {};
  fields.forEach((f, i) => {
    const b: FieldBounds | undefined =
      interval && i < plan.eqLen
        ? { kind: 'points', values: [interval.start[i]] }
        : i < plan.eqLen || (i === plan.eqLen && plan.range)
          ? plan.fieldBounds.get(f)!.bounds!
          : undefined;
    defineField(
      bounds,
      f,
      !b
        ? ['[MinKey, MaxKey]']
        : b.kind === 'points'
          ? b.values.map((v) => `[${show(v)}, ${show(v)}]`)
          : [`${b.lowInc ? '[' : '('}${show(b.low)}, ${show(b.high)}${b.highInc ? ']' : ')'}`],
    );
    if (dirs[i] === -1) bounds[f]!.reverse();
  });
  return bounds;
}

function buildIntervals(
  index: IndexStore,
  eqLen: number,
  range: Extract<FieldBounds, { kind: 'range' }> | undefined,
  fieldBounds: Map<string, { bounds?: FieldBounds }>,
): Interval[] {
  let prefixes: unknown[][] = [[]];
  for (let i = 0; i < eqLen; i++) {
    const values = (fieldBounds.get(index.fields[i]!)!.bounds as { values: unknown[] }).values;
    const inOrder = index.dirs[i] === 1 ? values : [...values].reverse();
    prefixes = prefixes.flatMap((p) => inOrder.map((v) => [...p, v]));
  }
  return prefixes.map((p) => {
    if (!range) return { start: p, startInc: true, end: p, endInc: true };
    const asc = index.dirs[eqLen] === 1;
    return {
      start: [...p, asc ? range.low : range.high],
      startInc: asc ? range.lowInc : range.highInc,
      end: [...p, asc ? range.high : range.low],
      endInc: asc ? range.highInc : range.lowInc,
    };
  });
}

/**
 * Chooses the index for `filter` (and `sort`), as MongoDB's planner would for these shapes:
 * equality on a key prefix, then a range or `$in`, then the sort. A unique index fixed by equality
 * wins outright, and one fixed by `$in` points next; otherwise a served sort counts for more than
 * two more bound fields, then the number of bound fields. Undefined when no index helps (a
 * collection scan).
 */
export function chooseIndex(
  filter: Document,
  sort: SortField[] | undefined,
  indexes: Iterable<IndexStore>,
): IndexPlan | undefined {
  const { byField, open } = conjuncts(filter);
  const fieldBounds = new Map<string, { bounds?: FieldBounds; complete: boolean }>();
  for (const [field, preds] of byField) {
    const first = boundsFor(preds[0]);
    fieldBounds.set(field, preds.length > 1 ? { ...first, complete: false } : first);
  }
  let best: Candidate | undefined;
  let reached = false;
  for (const index of indexes) {
    if (!index.complete) continue; // sparse/partial indexes lack some documents
    const c = planIndex(index, fieldBounds, sort, open);
    reached ||= !!c?.plan.maxScansToExplodeReached;
    if (c && (!best || c.score > best.score)) best = c;
  }
  if (!best) return undefined;
  const plan = best.plan;
  plan.maxScansToExplodeReached = reached;
  plan.intervals = buildIntervals(plan.index, plan.eqLen, plan.range, fieldBounds);
  return plan;
}
