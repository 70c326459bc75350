import type { Document } from 'bson';
import type { Query } from 'mingo';
import { DuplicateKeyError, badValue } from '../errors.js';
import { compileQuery } from './mingo.js';
import type { RangeBounds } from './index-select.js';
import { encodeKey, hasPath, pathValues, rangeKey } from './values.js';

export interface IndexSpec {
  v?: number;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
  [option: string]: unknown;
}

interface KeyEntry {
  value: unknown;
  ids: Set<string>;
}

interface SortedEntry {
  t: string;
  k: number | string;
  id: string;
}

/** One secondary (or `_id`) index: leading-field postings for lookups plus compound keys for uniqueness. */
export class IndexStore {
  readonly fields: string[];
  private readonly byLeading = new Map<string, KeyEntry>();
  private readonly byCompound = new Map<string, string>();
  private sorted: SortedEntry[] | null = null;
  private readonly partial?: Query;

  constructor(
    readonly spec: IndexSpec,
    private readonly ns: string,
  ) {
    this.fields = Object.keys(spec.key);
    if (this.fields.length === 0) throw badValue('Index keys cannot be empty.');
    for (const [f, dir] of Object.entries(spec.key)) {
      // Geo/text/hashed key types are out of scope; reject them rather than silently mis-index.
      if (dir !== 1 && dir !== -1)
        throw badValue(`Unsupported index type ${JSON.stringify(dir)} on field '${f}' (only 1/-1)`);
    }
    if (spec.partialFilterExpression) this.partial = compileQuery(spec.partialFilterExpression);
  }

  get name(): string {
    return this.spec.name;
  }

  get leading(): string {
    return this.fields[0]!;
  }

  /** Sparse/partial indexes omit some documents, so they cannot answer arbitrary queries. */
  get complete(): boolean {
    return !this.spec.sparse && !this.partial;
  }

  private covers(doc: Document): boolean {
    if (this.spec.sparse && !this.fields.some((f) => hasPath(doc, f))) return false;
    if (this.partial && !this.partial.test(doc)) return false;
    return true;
  }

  private compoundKeys(doc: Document): { key: string; values: unknown[] }[] {
    let combos: { key: string; values: unknown[] }[] = [{ key: '', values: [] }];
    for (const f of this.fields) {
      const vals = dedupe(pathValues(doc, f));
      combos = combos.flatMap((c) =>
        vals.map((v) => ({ key: `${c.key}|${encodeKey(v)}`, values: [...c.values, v] })),
      );
    }
    return combos;
  }

  /** Throws MongoDB's E11000 if `doc` would collide with a different document. */
  checkUnique(doc: Document, id: string): void {
    if (!this.spec.unique || !this.covers(doc)) return;
    for (const { key, values } of this.compoundKeys(doc)) {
      const owner = this.byCompound.get(key);
      if (owner !== undefined && owner !== id) {
        const keyValue: Document = {};
        this.fields.forEach((f, i) => (keyValue[f] = values[i] === undefined ? null : values[i]));
        throw new DuplicateKeyError(this.ns, this.name, { ...this.spec.key }, keyValue);
      }
    }
  }

  add(doc: Document, id: string): void {
    if (!this.covers(doc)) return;
    if (this.spec.unique)
      for (const { key } of this.compoundKeys(doc)) this.byCompound.set(key, id);
    for (const v of dedupe(pathValues(doc, this.leading))) {
      const k = encodeKey(v);
      let entry = this.byLeading.get(k);
      if (!entry) this.byLeading.set(k, (entry = { value: v, ids: new Set() }));
      entry.ids.add(id);
    }
    this.sorted = null;
  }

  remove(doc: Document, id: string): void {
    if (this.spec.unique) {
      for (const { key } of this.compoundKeys(doc))
        if (this.byCompound.get(key) === id) this.byCompound.delete(key);
    }
    for (const v of pathValues(doc, this.leading)) {
      const k = encodeKey(v);
      const entry = this.byLeading.get(k);
      if (!entry) continue;
      entry.ids.delete(id);
      if (entry.ids.size === 0) this.byLeading.delete(k);
    }
    this.sorted = null;
  }

  lookupEq(values: unknown[]): string[] {
    const out: string[] = [];
    for (const v of values) {
      const entry = this.byLeading.get(encodeKey(v));
      if (entry) out.push(...entry.ids);
    }
    return values.length > 1 ? [...new Set(out)] : out;
  }

  /** Range scan over a lazily rebuilt sorted view; rebuilt only after writes touched this index. */
  lookupRange(b: RangeBounds): string[] {
    const sorted = (this.sorted ??= this.buildSorted());
    const cmp = (a: SortedEntry, t: string, k: number | string) =>
      a.t < t ? -1 : a.t > t ? 1 : a.k < k ? -1 : a.k > k ? 1 : 0;
    const lowerBound = (pred: (e: SortedEntry) => boolean) => {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (pred(sorted[mid]!)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const start = b.lower
      ? lowerBound((e) =>
          b.lower!.inclusive ? cmp(e, b.t, b.lower!.k) < 0 : cmp(e, b.t, b.lower!.k) <= 0,
        )
      : lowerBound((e) => e.t < b.t);
    const end = b.upper
      ? lowerBound((e) =>
          b.upper!.inclusive ? cmp(e, b.t, b.upper!.k) <= 0 : cmp(e, b.t, b.upper!.k) < 0,
        )
      : lowerBound((e) => e.t <= b.t);
    const out: string[] = [];
    for (let i = start; i < end; i++) out.push(sorted[i]!.id);
    return [...new Set(out)];
  }

  private buildSorted(): SortedEntry[] {
    const out: SortedEntry[] = [];
    for (const { value, ids } of this.byLeading.values()) {
      const rk = rangeKey(value);
      if (!rk) continue;
      for (const id of ids) out.push({ t: rk.t, k: rk.k, id });
    }
    return out.sort((a, b) =>
      a.t < b.t ? -1 : a.t > b.t ? 1 : a.k < b.k ? -1 : a.k > b.k ? 1 : 0,
    );
  }

  /** Documents whose TTL field (a date, or the earliest date in an array) is older than the cutoff. */
  expiredIds(cutoffMs: number): string[] {
    const out = new Set<string>();
    for (const { value, ids } of this.byLeading.values()) {
      if (value instanceof Date && value.getTime() <= cutoffMs) for (const id of ids) out.add(id);
    }
    return [...out];
  }
}

function dedupe(values: unknown[]): unknown[] {
  if (values.length < 2) return values;
  const seen = new Map<string, unknown>();
  for (const v of values) seen.set(encodeKey(v), v);
  return [...seen.values()];
}
