import type { Document } from 'bson';
import type { Query } from 'mingo';
import { DuplicateKeyError, badValue } from '../errors.js';
import { ExpiryQueue } from './expiry-queue.js';
import { compileQuery } from './mingo.js';
import type { RangeBounds } from './index-select.js';
import {
  MULTI,
  encodeKey,
  hasPath,
  keyPart,
  pathValues,
  rangeKey,
  singlePathValue,
} from './values.js';

/** The `byPair` key of a (first field, second field) pair of values; writes and look-ups share it. */
const pairKey = (first: unknown, second: unknown): string =>
  keyPart(encodeKey(first)) + keyPart(encodeKey(second));

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

/** The documents under one key: a lone id (the common case: unique keys, dates) or a Set. */
type Ids = string | Set<string>;

/** Postings of one leading-field value. */
interface KeyEntry {
  value: unknown;
  ids: Ids;
}

interface SortedEntry {
  t: string;
  k: number | string;
  id: string;
}

/**
 * One secondary (or `_id`) index: leading-field postings for lookups plus compound keys for uniqueness.
 *
 * Writers first `load` a document's keys (computed once, into scratch fields of this index, so the
 * common single-valued case allocates nothing), then `checkLoaded` and `addLoaded` reuse them. The
 * scratch is only valid until the next `load` on this index; `checkUnique`/`add` do all steps.
 */
export class IndexStore {
  readonly fields: string[];
  private readonly paths: string[][];
  private readonly byLeading = new Map<string, KeyEntry>();
  private readonly byCompound = new Map<string, string>();
  /** Compound indexes only: postings of each (first field, second field) pair of values. */
  private readonly byPair?: Map<string, Ids>;
  private sorted: SortedEntry[] | null = null;
  private readonly partial?: Query;
  private readonly unique: boolean;
  /** TTL indexes only: their dates, earliest first. */
  private readonly expiry?: ExpiryQueue;

  // Scratch: keys of the last loaded document.
  private lDoc: Document | undefined;
  private lCovered = false;
  /** Single-valued: one leading value/key and (unique indexes) one compound key. */
  private lSingle = true;
  private lValue: unknown;
  private lKey = '';
  private lCompound = '';
  /** Multikey (an array somewhere on an indexed path): deduplicated values/keys. */
  private lValues: unknown[] = [];
  private lKeys: string[] = [];
  private lCompounds: string[] = [];
  /** Pair keys of the first two fields (compound indexes only). */
  private lPairs: string[] = [];

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
    this.paths = this.fields.map((f) => f.split('.'));
    this.unique = !!spec.unique;
    if (spec.partialFilterExpression) this.partial = compileQuery(spec.partialFilterExpression);
    if (typeof spec.expireAfterSeconds === 'number' && this.fields.length === 1)
      this.expiry = new ExpiryQueue();
    if (this.fields.length > 1) this.byPair = new Map();
  }

  get second(): string | undefined {
    return this.fields[1];
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
    if (this.spec.sparse) {
      let any = false;
      for (let i = 0; i < this.fields.length && !any; i++) any = hasPath(doc, this.fields[i]!);
      if (!any) return false;
    }
    if (this.partial && !this.partial.test(doc)) return false;
    return true;
  }

  /**
   * Every combination of the fields' values (multikey), as keys with the values. A compound key is
   * the concatenation of each field's `keyPart` (length-prefixed, so string contents cannot make two
   * different combinations collide); single-field indexes key by the bare encoded value. This is the
   * general form; `load` builds the same keys without allocating for single-valued documents.
   */
  private compoundKeys(doc: Document): { key: string; values: unknown[] }[] {
    if (this.fields.length === 1)
      return dedupe(pathValues(doc, this.leading)).map((v) => ({ key: encodeKey(v), values: [v] }));
    let combos: { key: string; values: unknown[] }[] = [{ key: '', values: [] }];
    for (const f of this.fields) {
      const vals = dedupe(pathValues(doc, f));
      combos = combos.flatMap((c) =>
        vals.map((v) => ({ key: c.key + keyPart(encodeKey(v)), values: [...c.values, v] })),
      );
    }
    return combos;
  }

  /** Computes `doc`'s keys for this index into the scratch fields. */
  load(doc: Document): void {
    this.lDoc = doc;
    this.lCovered = this.covers(doc);
    if (!this.lCovered) return;
    if (this.byPair) this.lPairs = this.pairKeys(doc);
    const paths = this.paths;
    const lead = singlePathValue(doc, paths[0]!);
    let single = lead !== MULTI;
    let compound = '';
    if (single) {
      this.lValue = lead;
      this.lKey = encodeKey(lead);
      if (this.unique) {
        if (paths.length === 1) compound = this.lKey;
        else {
          compound = keyPart(this.lKey);
          for (let i = 1; i < paths.length; i++) {
            const v = singlePathValue(doc, paths[i]!);
            if (v === MULTI) {
              single = false;
              break;
            }
            compound += keyPart(encodeKey(v));
          }
        }
      }
    }
    this.lSingle = single;
    if (single) {
      this.lCompound = compound;
      return;
    }
    // Multikey: the general (allocating) path.
    this.lValues = dedupe(pathValues(doc, this.leading));
    this.lKeys = this.lValues.map(encodeKey);
    this.lCompounds = this.unique ? this.compoundKeys(doc).map((c) => c.key) : [];
  }

  /** Throws MongoDB's E11000 if the loaded document would collide with a different document. */
  checkLoaded(id: string): void {
    if (!this.unique || !this.lCovered) return;
    if (this.lSingle) {
      const owner = this.byCompound.get(this.lCompound);
      if (owner !== undefined && owner !== id) this.duplicate(this.lCompound);
      return;
    }
    for (const key of this.lCompounds) {
      const owner = this.byCompound.get(key);
      if (owner !== undefined && owner !== id) this.duplicate(key);
    }
  }

  private duplicate(key: string): never {
    const combo = this.compoundKeys(this.lDoc!).find((c) => c.key === key)!;
    const keyValue: Document = {};
    for (let i = 0; i < this.fields.length; i++) {
      const v = combo.values[i];
      keyValue[this.fields[i]!] = v === undefined ? null : v;
    }
    throw new DuplicateKeyError(this.ns, this.name, { ...this.spec.key }, keyValue);
  }

  /** Keys of every (first field, second field) combination of `doc`'s values. */
  private pairKeys(doc: Document): string[] {
    const a = singlePathValue(doc, this.paths[0]!);
    const b = singlePathValue(doc, this.paths[1]!);
    if (a !== MULTI && b !== MULTI) return [pairKey(a, b)];
    const second = dedupe(pathValues(doc, this.fields[1]!));
    return dedupe(pathValues(doc, this.leading)).flatMap((x) => second.map((y) => pairKey(x, y)));
  }

  /** Adds the loaded document under `id`. */
  addLoaded(id: string): void {
    this.lDoc = undefined;
    if (!this.lCovered) return;
    if (this.byPair)
      for (const key of this.lPairs) this.byPair.set(key, withId(this.byPair.get(key), id));
    if (this.lSingle) {
      if (this.unique) this.byCompound.set(this.lCompound, id);
      this.post(this.lKey, this.lValue, id);
    } else {
      if (this.unique) for (const key of this.lCompounds) this.byCompound.set(key, id);
      for (let i = 0; i < this.lKeys.length; i++) this.post(this.lKeys[i]!, this.lValues[i], id);
    }
    this.sorted = null;
  }

  private post(k: string, value: unknown, id: string): void {
    const entry = this.byLeading.get(k);
    if (!entry) {
      this.byLeading.set(k, { value, ids: id });
      // A key stands for one value, so its date is queued once, when the key first appears.
      if (this.expiry && value instanceof Date && Number.isFinite(value.getTime()))
        this.expiry.push(value.getTime(), k);
    } else entry.ids = withId(entry.ids, id);
  }

  /** Throws MongoDB's E11000 if `doc` would collide with a different document. */
  checkUnique(doc: Document, id: string): void {
    if (!this.unique) return;
    this.load(doc);
    this.checkLoaded(id);
  }

  add(doc: Document, id: string): void {
    this.load(doc);
    this.addLoaded(id);
  }

  remove(doc: Document, id: string): void {
    if (this.byPair && this.covers(doc))
      for (const key of this.pairKeys(doc)) removePosting(this.byPair, key, id);
    if (this.unique) {
      for (const { key } of this.compoundKeys(doc))
        if (this.byCompound.get(key) === id) this.byCompound.delete(key);
    }
    for (const v of pathValues(doc, this.leading)) {
      const k = encodeKey(v);
      const entry = this.byLeading.get(k);
      if (!entry) continue;
      const left = withoutId(entry.ids, id);
      if (left === undefined) this.byLeading.delete(k);
      else entry.ids = left;
    }
    this.sorted = null;
  }

  lookupEq(values: unknown[]): string[] {
    const out: string[] = [];
    for (const v of values) {
      const entry = this.byLeading.get(encodeKey(v));
      if (entry) appendIds(out, entry.ids);
    }
    return values.length > 1 ? [...new Set(out)] : out;
  }

  /** Documents whose first two fields equal one of `values` and one of `secondValues`. */
  lookupPair(values: unknown[], secondValues: unknown[]): string[] {
    if (!this.byPair) return [];
    const out: string[] = [];
    for (const a of values)
      for (const b of secondValues) {
        const ids = this.byPair.get(pairKey(a, b));
        if (ids !== undefined) appendIds(out, ids);
      }
    return values.length > 1 || secondValues.length > 1 ? [...new Set(out)] : out;
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
      if (typeof ids === 'string') out.push({ t: rk.t, k: rk.k, id: ids });
      else for (const id of ids) out.push({ t: rk.t, k: rk.k, id });
    }
    return out.sort((a, b) =>
      a.t < b.t ? -1 : a.t > b.t ? 1 : a.k < b.k ? -1 : a.k > b.k ? 1 : 0,
    );
  }

  /**
   * Documents whose TTL field (a date, or the earliest date in an array) is at or before the
   * cutoff. Only the dates that came due are visited; the caller removes the documents returned.
   */
  expiredIds(cutoffMs: number): string[] {
    if (!this.expiry) return [];
    const out: string[] = [];
    for (const key of this.expiry.takeUntil(cutoffMs)) {
      const entry = this.byLeading.get(key);
      if (entry) appendIds(out, entry.ids); // else removed since it was queued
    }
    return [...new Set(out)];
  }
}

/** `ids` with `id` added (a Set grows in place). */
function withId(ids: Ids | undefined, id: string): Ids {
  if (ids === undefined || ids === id) return id;
  if (typeof ids === 'string') return new Set([ids, id]);
  return ids.add(id);
}

/** `ids` without `id`; undefined once none is left (a Set shrinks in place). */
function withoutId(ids: Ids, id: string): Ids | undefined {
  if (typeof ids === 'string') return ids === id ? undefined : ids;
  ids.delete(id);
  return ids.size === 0 ? undefined : ids;
}

function removePosting(postings: Map<string, Ids>, key: string, id: string): void {
  const ids = postings.get(key);
  if (ids === undefined) return;
  const left = withoutId(ids, id);
  if (left === undefined) postings.delete(key);
  else postings.set(key, left);
}

function appendIds(out: string[], ids: Ids): void {
  if (typeof ids === 'string') out.push(ids);
  // Not push(...ids): spreading a posting of a few hundred thousand ids overflows the stack.
  else for (const id of ids) out.push(id);
}

function dedupe(values: unknown[]): unknown[] {
  if (values.length < 2) return values;
  const seen = new Map<string, unknown>();
  for (const v of values) seen.set(encodeKey(v), v);
  return [...seen.values()];
}
