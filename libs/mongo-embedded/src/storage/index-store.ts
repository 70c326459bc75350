import { defineField } from '../safety/unsafe-keys.js';
import type { Document } from 'bson';
import type { Query } from 'mingo';
import { DuplicateKeyError, badValue } from '../errors.js';
import { ExpiryQueue } from './expiry-queue.js';
import { compileQuery } from './mingo.js';
import { OrderedKeys } from './ordered-keys.js';
import { MULTI, encodeKey, hasPath, keyPart, pathValues, singlePathValue } from './values.js';

export interface IndexSpec {
  v?: number;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
  /** Kept up to date under writes and enforcing uniqueness, but never chosen or hinted. */
  hidden?: boolean;
  /** MongoDB 6.0+: refuses new duplicate keys, keeps the ones already there (collMod's first step). */
  prepareUnique?: boolean;
  [option: string]: unknown;
}

/** The documents under one key: a lone id (the common case: unique keys, dates) or a Set. */
type Ids = string | Set<string>;

/** Postings of one leading-field value (TTL indexes: the dates' documents). */
interface Posting {
  value: unknown;
  ids: Ids;
}

/**
 * One secondary (or `_id`) index: its entries in key order (`ordered`, what the planner scans),
 * compound keys for uniqueness and, for TTL indexes, leading-field postings for the sweep.
 *
 * Writers first `load` a document's keys (computed once, into scratch fields of this index, so the
 * common single-valued case allocates nothing), then `checkLoaded` and `addLoaded` reuse them. The
 * scratch is only valid until the next `load` on this index; `checkUnique`/`add` do all steps.
 */
export class IndexStore {
  readonly fields: string[];
  private readonly paths: string[][];
  readonly dirs: number[];
  /**
   * The entries; for the `_id` index only once a query first needs them (see `ordered`): until
   * then its writes cost nothing, as most collections are never sorted or ranged by `_id`.
   */
  private keys: OrderedKeys | undefined;
  /** Set once any document had an array on an indexed path (sticky, as in MongoDB). */
  multikey = false;
  private readonly byLeading = new Map<string, Posting>();
  /** Compound key → its documents: one id for unique indexes, possibly several under prepareUnique. */
  private readonly byCompound = new Map<string, Ids>();
  private readonly partial?: Query;
  /**
   * Keeps its own uniqueness map and refuses a key another document holds (unique and
   * prepareUnique indexes); the `_id` index does not: the collection's documents are keyed by `_id`.
   */
  private readonly unique: boolean;
  /** prepareUnique, not yet unique: duplicates already there are kept, each key lists its documents. */
  private readonly shared: boolean;
  /** Whether writes need the encoded leading key (the uniqueness map or the TTL postings use it). */
  private readonly keyed: boolean;
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
  /** Index keys (values in key-pattern order) of the loaded document; several when multikey. */
  private lTuples: unknown[][] = [];
  /** The key values of the document being loaded, before they become an entry. */
  private readonly scratch: unknown[] = [];

  constructor(
    readonly spec: IndexSpec,
    private readonly ns: string,
    private readonly isIdIndex = false,
    /** `_id` index: every stored document with its id and natural position, to build the entries. */
    private readonly stored?: () => Iterable<[id: string, doc: Document, n: number]>,
  ) {
    this.fields = Object.keys(spec.key);
    if (this.fields.length === 0) throw badValue('Index keys cannot be empty.');
    for (const [f, dir] of Object.entries(spec.key)) {
      // Geo/text/hashed key types are out of scope; reject them rather than silently mis-index.
      if (dir !== 1 && dir !== -1)
        throw badValue(`Unsupported index type ${JSON.stringify(dir)} on field '${f}' (only 1/-1)`);
    }
    this.paths = this.fields.map((f) => f.split('.'));
    this.dirs = this.fields.map((f) => spec.key[f] as number);
    if (!stored) this.keys = new OrderedKeys(this.dirs);
    this.unique = (!!spec.unique || spec.prepareUnique === true) && !isIdIndex;
    this.shared = this.unique && !spec.unique;
    if (spec.partialFilterExpression) this.partial = compileQuery(spec.partialFilterExpression);
    if (typeof spec.expireAfterSeconds === 'number' && this.fields.length === 1)
      this.expiry = new ExpiryQueue();
    this.keyed = this.unique || !!this.expiry;
  }

  /** The entries in key order (what the planner scans), built on first use for the `_id` index. */
  get ordered(): OrderedKeys {
    if (this.keys) return this.keys;
    const keys = new OrderedKeys(this.dirs);
    const m = this.fields.length;
    for (const [id, doc, n] of this.stored!()) {
      const k = this.tuples(doc)[0]!;
      k[m] = n;
      k[m + 1] = id;
      keys.insert(k);
    }
    return (this.keys = keys);
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
    if (this.keys) this.lTuples = this.tuples(doc);
    const paths = this.paths;
    const lead = singlePathValue(doc, paths[0]!);
    let single = lead !== MULTI;
    let compound = '';
    if (single && this.keyed) {
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
    if (!this.keyed) return;
    this.lValues = dedupe(pathValues(doc, this.leading));
    this.lKeys = this.lValues.map(encodeKey);
    this.lCompounds = this.unique ? this.compoundKeys(doc).map((c) => c.key) : [];
  }

  /** Throws MongoDB's E11000 if the loaded document would collide with a different document. */
  checkLoaded(id: string): void {
    if (!this.unique || !this.lCovered) return;
    // A key is refused when other documents hold it and this one does not already (an update
    // that keeps its key passes, even where prepareUnique left duplicates).
    if (this.lSingle) {
      const owners = this.byCompound.get(this.lCompound);
      if (owners !== undefined && !holds(owners, id)) this.duplicate(this.lCompound);
      return;
    }
    for (const key of this.lCompounds) {
      const owners = this.byCompound.get(key);
      if (owners !== undefined && !holds(owners, id)) this.duplicate(key);
    }
  }

  private duplicate(key: string): never {
    const combo = this.compoundKeys(this.lDoc!).find((c) => c.key === key)!;
    const keyValue: Document = {};
    for (let i = 0; i < this.fields.length; i++) {
      const v = combo.values[i];
      defineField(keyValue, this.fields[i]!, v === undefined ? null : v);
    }
    throw new DuplicateKeyError(this.ns, this.name, { ...this.spec.key }, keyValue);
  }

  /** The index keys of `doc`: one tuple, or every combination of its values when multikey. */
  private tuples(doc: Document): unknown[][] {
    const paths = this.paths;
    const values = this.scratch;
    for (let i = 0; i < paths.length; i++) {
      const v = singlePathValue(doc, paths[i]!);
      if (v === MULTI) {
        // Conservative: a document that fails a unique check still marks the index multikey.
        this.multikey = true;
        return this.compoundKeys(doc).map((c) => c.values.concat([undefined, undefined]));
      }
      values[i] = v;
    }
    return [entryOf(values, paths.length)];
  }

  /**
   * Adds the loaded document under `id`; `n` is its natural position (the order of equal keys).
   */
  addLoaded(id: string, n = 0): void {
    this.lDoc = undefined;
    if (!this.lCovered) return;
    // The loaded tuples are fresh arrays used once: they become the entries (see `KeyEntry`).
    const keys = this.keys;
    if (keys) {
      const m = this.fields.length;
      for (const k of this.lTuples) {
        k[m] = n;
        k[m + 1] = id;
        keys.insert(k);
      }
    }
    if (!this.keyed) return;
    if (this.lSingle) {
      if (this.unique) this.own(this.lCompound, id);
      this.post(this.lKey, this.lValue, id);
    } else {
      if (this.unique) for (const key of this.lCompounds) this.own(key, id);
      for (let i = 0; i < this.lKeys.length; i++) this.post(this.lKeys[i]!, this.lValues[i], id);
    }
  }

  private own(key: string, id: string): void {
    this.byCompound.set(key, this.shared ? withId(this.byCompound.get(key), id) : id);
  }

  /** prepareUnique: the groups of documents sharing a key (what a conversion to unique refuses). */
  duplicateGroups(): string[][] {
    const out: string[][] = [];
    for (const ids of this.byCompound.values()) if (typeof ids !== 'string') out.push([...ids]);
    return out;
  }

  private post(k: string, value: unknown, id: string): void {
    if (!this.expiry) return;
    const entry = this.byLeading.get(k);
    if (!entry) {
      this.byLeading.set(k, { value, ids: id });
      // A key stands for one value, so its date is queued once, when the key first appears.
      if (value instanceof Date && Number.isFinite(value.getTime()))
        this.expiry.push(value.getTime(), k);
    } else entry.ids = withId(entry.ids, id);
  }

  /**
   * Unique indexes: the document whose key equals `values` (one per field, in key order), from the
   * uniqueness map. Same keys as `load` builds, so a point look-up costs one `Map` get.
   */
  uniqueOwner(values: unknown[]): string | undefined {
    // The collection keys its documents by the encoded `_id`: the caller's look-up is the check.
    if (this.isIdIndex) return encodeKey(values[0]);
    let key = '';
    if (values.length === 1) key = encodeKey(values[0]);
    else for (const v of values) key += keyPart(encodeKey(v));
    const ids = this.byCompound.get(key);
    return typeof ids === 'string' ? ids : undefined; // only unique indexes are asked
  }

  /** Throws MongoDB's E11000 if `doc` would collide with a different document. */
  checkUnique(doc: Document, id: string): void {
    if (!this.unique) return;
    this.load(doc);
    this.checkLoaded(id);
  }

  add(doc: Document, id: string, n = 0): void {
    this.load(doc);
    this.addLoaded(id, n);
  }

  /** Removes `doc`, stored under `id` at natural position `n`. */
  remove(doc: Document, id: string, n = 0): void {
    if (!this.covers(doc)) return;
    const m = this.fields.length;
    if (this.keys)
      for (const k of this.tuples(doc)) {
        k[m] = n;
        k[m + 1] = id;
        this.keys.delete(k);
      }
    if (this.unique) {
      for (const { key } of this.compoundKeys(doc)) {
        const ids = this.byCompound.get(key);
        if (ids === undefined) continue;
        const left = withoutId(ids, id);
        if (left === undefined) this.byCompound.delete(key);
        else if (typeof left !== 'string' && left.size === 1)
          this.byCompound.set(key, left.values().next().value!); // no longer a duplicate
        else if (left !== ids) this.byCompound.set(key, left);
      }
    }
    if (!this.expiry) return;
    for (const v of pathValues(doc, this.leading)) {
      const k = encodeKey(v);
      const entry = this.byLeading.get(k);
      if (!entry) continue;
      const left = withoutId(entry.ids, id);
      if (left === undefined) this.byLeading.delete(k);
      else entry.ids = left;
    }
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

/**
 * An entry (key values, then a natural position and an id to be filled in) sized exactly and
 * allocated from an array literal: V8 tracks literal allocation sites and, as these entries live as
 * long as their documents, allocates them straight in the old generation instead of copying each
 * one out of the young generation (`new Array(n)` has no allocation site to learn from).
 */
function entryOf(v: unknown[], n: number): unknown[] {
  switch (n) {
    case 1:
      return [v[0], 0, ''];
    case 2:
      return [v[0], v[1], 0, ''];
    case 3:
      return [v[0], v[1], v[2], 0, ''];
    case 4:
      return [v[0], v[1], v[2], v[3], 0, ''];
    case 5:
      return [v[0], v[1], v[2], v[3], v[4], 0, ''];
    default: {
      const entry = v.slice(0, n);
      entry.push(0, '');
      return entry;
    }
  }
}

/** `ids` with `id` added (a Set grows in place). */
function withId(ids: Ids | undefined, id: string): Ids {
  if (ids === undefined || ids === id) return id;
  if (typeof ids === 'string') return new Set([ids, id]);
  return ids.add(id);
}

/** `ids` without `id`; undefined once none is left (a Set shrinks in place). */
const holds = (ids: Ids, id: string): boolean =>
  typeof ids === 'string' ? ids === id : ids.has(id);

function withoutId(ids: Ids, id: string): Ids | undefined {
  if (typeof ids === 'string') return ids === id ? undefined : ids;
  ids.delete(id);
  return ids.size === 0 ? undefined : ids;
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
