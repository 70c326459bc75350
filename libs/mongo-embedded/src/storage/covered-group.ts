import type { Document } from 'bson';
import type { Collection } from './collection.js';
import { executeCount, planFor, type ExecStats } from './query-exec.js';
import { encodeKey } from './values.js';

export interface CoveredResult {
  /** The documents the covered stages produce; the remaining stages run on them. */
  docs: Document[];
  /** How many leading stages were answered from the index. */
  consumed: number;
  stats: ExecStats;
}

const isCount = (acc: unknown): acc is { $sum: number } =>
  !!acc &&
  typeof acc === 'object' &&
  Object.keys(acc).length === 1 &&
  typeof (acc as Document).$sum === 'number';

const isConstantId = (id: unknown) =>
  id === null || typeof id === 'number' || (typeof id === 'string' && !id.startsWith('$'));

/**
 * `$match` then `$group` whose accumulators are all counts (`{$sum: <number>}`) — what
 * `countDocuments` sends, and a count per value of an indexed field — answered from index entries
 * when the match is exact on an index: a constant `_id` counts the keys in the bounds; `_id:
 * '$field'` on a field of that (non-multikey) index counts keys per value. Also `$match` + `$count`.
 * Undefined when the pipeline is not of that shape or the index cannot answer it alone.
 */
export function coveredGroup(
  coll: Collection,
  pipeline: Document[],
  hint: unknown,
): CoveredResult | undefined {
  const match = pipeline[0]?.$match as Document | undefined;
  if (!match) return undefined;
  let i = 1;
  let skip = 0;
  let limit = Infinity;
  for (; i < pipeline.length; i++) {
    const stage = pipeline[i]!;
    if (typeof stage.$skip === 'number' && limit === Infinity) skip += stage.$skip;
    else if (typeof stage.$limit === 'number') limit = Math.min(limit, stage.$limit);
    else break;
  }
  const last = pipeline[i];
  if (!last) return undefined;
  const clamp = (n: number) => Math.min(Math.max(0, n - skip), limit);

  if (typeof last.$count === 'string') {
    const { n, stats } = executeCount(coll, { filter: match, hint });
    if (!stats.countScan) return undefined;
    return { docs: clamp(n) > 0 ? [{ [last.$count]: clamp(n) }] : [], consumed: i + 1, stats };
  }
  const group = last.$group as Document | undefined;
  if (!group) return undefined;
  const accs = Object.entries(group).filter(([k]) => k !== '_id');
  if (!accs.every(([, acc]) => isCount(acc))) return undefined;
  const build = (id: unknown, n: number): Document => {
    const out: Document = { _id: id };
    for (const [k, acc] of accs) out[k] = n * (acc as { $sum: number }).$sum;
    return out;
  };

  if (isConstantId(group._id)) {
    const { n, stats } = executeCount(coll, { filter: match, hint });
    if (!stats.countScan) return undefined;
    return { docs: clamp(n) > 0 ? [build(group._id, clamp(n))] : [], consumed: i + 1, stats };
  }
  if (typeof group._id !== 'string' || skip > 0 || limit !== Infinity) return undefined;
  const field = group._id.slice(1);
  // Asking for the grouped field's order prefers an index that holds it right after the prefix.
  const plan = planFor(coll, { filter: match, sort: { [field]: 1 }, hint });
  const at = plan ? plan.index.fields.indexOf(field) : -1;
  if (!plan?.exact || at < 0 || plan.index.multikey) return undefined;
  const stats: ExecStats = {
    plan,
    keysExamined: 0,
    docsExamined: 0,
    inMemorySort: false,
    countScan: true,
  };
  const groups = new Map<string, { value: unknown; n: number }>();
  const keys = plan.index.ordered;
  const add = (value: unknown, n: number) => {
    const key = encodeKey(value ?? null);
    const g = groups.get(key);
    if (g) g.n += n;
    else groups.set(key, { value: value ?? null, n });
  };
  for (const iv of plan.intervals) {
    let from = keys.lowerBound(iv.start, iv.startInc);
    const to = keys.upperBound(iv.end, iv.endInc);
    if (at === iv.start.length && iv.end.length === iv.start.length) {
      // The grouped field follows an equality prefix: jump from one value's keys to the next.
      while (keys.countBetween(from, to) > 0) {
        const value = keys.at(from)![at];
        const next = keys.upperBound([...iv.start, value], true);
        stats.keysExamined++;
        add(value, keys.countBetween(from, next));
        from = next;
      }
      continue;
    }
    for (const e of keys.walk(from, to, 1)) {
      stats.keysExamined++;
      add(e[at], 1);
    }
  }
  return { docs: [...groups.values()].map((g) => build(g.value, g.n)), consumed: i + 1, stats };
}
