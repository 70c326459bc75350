import { ObjectId, type Document } from 'mongodb';

/** Seeded PRNG (mulberry32): each seed gives the same data on every run, so failures reproduce. */
export function rng(seed: number): { int(n: number): number; pick<T>(xs: readonly T[]): T } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n) => Math.floor(next() * n),
    pick: (xs) => xs[Math.floor(next() * xs.length)]!,
  };
}

const isObjectId = (v: unknown): v is ObjectId =>
  (v as { _bsontype?: string } | null)?._bsontype === 'ObjectId';

/**
 * The reference order, written from MongoDB's documented comparison order independently of the
 * engine: missing/null < numbers < strings < ObjectId < booleans < dates (the types generated).
 */
const RANK = (v: unknown): number =>
  v === undefined || v === null
    ? 0
    : typeof v === 'number'
      ? 1
      : typeof v === 'string'
        ? 2
        : isObjectId(v)
          ? 3
          : typeof v === 'boolean'
            ? 4
            : v instanceof Date
              ? 5
              : 9;

export function referenceCompare(a: unknown, b: unknown): number {
  const ra = RANK(a);
  const rb = RANK(b);
  if (ra !== rb) return ra - rb;
  const [x, y] =
    a instanceof Date
      ? [a.getTime(), (b as Date).getTime()]
      : isObjectId(a)
        ? [a.toHexString(), (b as ObjectId).toHexString()]
        : [a as number, b as number];
  return x === y || ra === 0 ? 0 : x! < y! ? -1 : 1;
}

/** Stable sort by `sort` in the reference order: the expected answer of a full scan. */
export function referenceSort(docs: Document[], sort: Record<string, 1 | -1>): Document[] {
  return docs
    .map((d, i) => ({ d, i }))
    .sort((p, q) => {
      for (const [f, dir] of Object.entries(sort)) {
        const c = referenceCompare(p.d[f], q.d[f]);
        if (c !== 0) return c * dir;
      }
      return p.i - q.i;
    })
    .map((x) => x.d);
}

export const STATUSES = ['pending', 'in_transit', 'delivered', 'failed'] as const;

/** A mixed-type value: the indexed field that holds every generated BSON type. */
export function mixedValue(r: ReturnType<typeof rng>): unknown {
  switch (r.int(7)) {
    case 0:
      return null;
    case 1:
      return undefined; // field absent
    case 2:
      return r.int(20) - 5;
    case 3:
      return `s${r.int(15)}`;
    case 4:
      return new ObjectId(r.int(16).toString(16).padStart(24, '0'));
    case 5:
      return r.int(2) === 0;
    default:
      return new Date(1_700_000_000_000 + r.int(10) * 1000);
  }
}

/** A tracking-like row; `at` has few distinct values (ties), `u` is unique per row. */
export function trackingRow(r: ReturnType<typeof rng>, id: number): Document {
  const doc: Document = {
    id,
    t: r.pick(['t1', 't2']),
    ii: r.pick(['a', 'b', 'c']),
    at: new Date(1_700_000_000_000 + r.int(40) * 60_000),
    u: new Date(1_700_000_000_000 + id * 7_000 + r.int(5_000)),
    n: r.int(30),
  };
  if (r.int(10) > 0) doc.s = r.pick(STATUSES);
  const m = mixedValue(r);
  if (m !== undefined) doc.m = m;
  return doc;
}

/** Every stage of an explain plan tree, the root first (SORT_MERGE has `inputStages`). */
export function stages(plan: Document | undefined): Document[] {
  if (!plan) return [];
  const inputs = (plan.inputStages as Document[] | undefined) ?? [plan.inputStage as Document];
  return [plan, ...inputs.flatMap((input) => stages(input))];
}
