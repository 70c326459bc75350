import type { Document } from 'bson';
import { isOperatorObject, rangeKey } from './values.js';

export interface RangeBounds {
  t: 'n' | 's' | 'd';
  lower?: { k: number | string; inclusive: boolean };
  upper?: { k: number | string; inclusive: boolean };
}

export type IndexPlan =
  | { index: string; field: string; kind: 'eq'; values: unknown[] }
  | { index: string; field: string; kind: 'range'; bounds: RangeBounds }
  | {
      index: string;
      field: string;
      kind: 'eq2';
      values: unknown[];
      /** The key pattern's second field and the values it must equal. */
      second: string;
      secondValues: unknown[];
    };

export interface UsableIndex {
  name: string;
  /** First field of the key pattern; predicates on it can use the index. */
  leading: string;
  /** Second field of a compound key pattern: equality on both fields narrows to their pair. */
  second?: string;
  unique: boolean;
}

const plainEqValue = (v: unknown) =>
  v !== null &&
  v !== undefined &&
  !(v instanceof RegExp) &&
  !Array.isArray(v) &&
  !isOperatorObject(v);

/** Turns a predicate on one field into an index plan shape, or undefined when only a scan can answer it. */
type PlanShape = { kind: 'eq'; values: unknown[] } | { kind: 'range'; bounds: RangeBounds };

function planForPredicate(pred: unknown): PlanShape | undefined {
  if (plainEqValue(pred)) return { kind: 'eq', values: [pred] };
  if (!isOperatorObject(pred)) return undefined;
  if ('$eq' in pred && plainEqValue(pred.$eq)) return { kind: 'eq', values: [pred.$eq] };
  if (Array.isArray(pred.$in) && pred.$in.every(plainEqValue))
    return { kind: 'eq', values: pred.$in };
  let bounds: RangeBounds | undefined;
  for (const [op, inclusive, side] of [
    ['$gt', false, 'lower'],
    ['$gte', true, 'lower'],
    ['$lt', false, 'upper'],
    ['$lte', true, 'upper'],
  ] as const) {
    if (!(op in pred)) continue;
    const rk = rangeKey(pred[op]);
    // Mixed type brackets (e.g. $gt a number, $lt a date) match nothing sensible; let the scan decide.
    if (!rk || (bounds && bounds.t !== rk.t)) return undefined;
    bounds ??= { t: rk.t };
    bounds[side] = { k: rk.k, inclusive };
  }
  return bounds ? { kind: 'range', bounds } : undefined;
}

function conjuncts(filter: Document): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' && Array.isArray(v))
      for (const sub of v) out.push(...conjuncts(sub as Document));
    else if (!k.startsWith('$')) out.push([k, v]);
  }
  return out;
}

/**
 * Picks an index able to narrow the candidates for `filter`. The caller still verifies every
 * candidate against the full filter, so a plan only has to be a superset of the matches.
 * Equality on a compound key's first two fields beats equality on one field, equality beats
 * ranges, and unique indexes beat others, mirroring what the planner would prefer.
 */
export function chooseIndexPlan(filter: Document, indexes: UsableIndex[]): IndexPlan | undefined {
  let best: IndexPlan | undefined;
  let bestScore = -1;
  const equalities = new Map<string, unknown[]>();
  const predicates = conjuncts(filter);
  for (const [field, pred] of predicates) {
    const p = planForPredicate(pred);
    if (p?.kind === 'eq' && !equalities.has(field)) equalities.set(field, p.values);
  }
  for (const idx of indexes) {
    const leadingValues = equalities.get(idx.leading);
    const secondValues = idx.second === undefined ? undefined : equalities.get(idx.second);
    if (!leadingValues || !secondValues) continue;
    // Equality on the first two fields of a compound key: narrower than either field alone, and
    // second only to equality on a unique single-field key (at most one document per value).
    const score = 2.5 + (idx.unique ? 1 : 0);
    if (score > bestScore) {
      bestScore = score;
      best = {
        kind: 'eq2',
        index: idx.name,
        field: idx.leading,
        values: leadingValues,
        second: idx.second!,
        secondValues,
      };
    }
  }
  for (const [field, pred] of predicates) {
    for (const idx of indexes) {
      if (idx.leading !== field) continue;
      const p = planForPredicate(pred);
      if (!p) continue;
      const score = (p.kind === 'eq' ? 2 : 0) + (idx.unique ? 1 : 0);
      if (score > bestScore) {
        bestScore = score;
        best = { ...p, index: idx.name, field } as IndexPlan;
      }
    }
  }
  return best;
}
