import type { Document } from 'bson';
import type { Query } from 'mingo';
import { badValue } from '../errors.js';
import { compoundKeyOf, compoundKeys, dedupe, entryOf } from './index-keys.js';
import { compileQuery } from './mingo.js';
import { OrderedKeys } from './ordered-keys.js';
import { TtlPostings } from './ttl-postings.js';
import { UniqueKeys, duplicateKeyError } from './unique-keys.js';
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
  private readonly partial?: Query;
  /**
   * Unique and prepareUnique indexes keep their own uniqueness map and refuse a key another
   * document holds; the `_id` index does not: the collection's documents are keyed by `_id`.
   */
  private readonly uniqueKeys?: UniqueKeys;
  /** Whether writes need the encoded leading key (the uniqueness map or the TTL postings use it). */
  private readonly keyed: boolean;
  /** TTL indexes only: their dates' documents, the dates earliest first. */
  private readonly ttl?: TtlPostings;

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
    if ((spec.unique || spec.prepareUnique === true) && !isIdIndex)
      this.uniqueKeys = new UniqueKeys(!spec.unique);
    if (spec.partialFilterExpression) this.partial = compileQuery(spec.partialFilterExpression);
    if (typeof spec.expireAfterSeconds === 'number' && this.fields.length === 1)
      this.ttl = new TtlPostings();
    this.keyed = !!this.uniqueKeys || !!this.ttl;
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
      if (this.uniqueKeys) {
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
    this.lCompounds = this.uniqueKeys ? compoundKeys(this.fields, doc).map((c) => c.key) : [];
  }

  /** Throws MongoDB's E11000 if the loaded document would collide with a different document. */
  checkLoaded(id: string): void {
    const unique = this.uniqueKeys;
    if (!unique || !this.lCovered) return;
    if (this.lSingle) {
      if (unique.takenByOther(this.lCompound, id)) this.duplicate(this.lCompound);
      return;
    }
    for (const key of this.lCompounds) if (unique.takenByOther(key, id)) this.duplicate(key);
  }

  private duplicate(key: string): never {
    throw duplicateKeyError(this.ns, this.name, this.spec.key, this.fields, this.lDoc!, key);
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
        return compoundKeys(this.fields, doc).map((c) => c.values.concat([undefined, undefined]));
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
    const unique = this.uniqueKeys;
    const ttl = this.ttl;
    if (this.lSingle) {
      unique?.own(this.lCompound, id);
      ttl?.post(this.lKey, this.lValue, id);
    } else {
      if (unique) for (const key of this.lCompounds) unique.own(key, id);
      if (ttl)
        for (let i = 0; i < this.lKeys.length; i++) ttl.post(this.lKeys[i]!, this.lValues[i], id);
    }
  }

  /** prepareUnique: the groups of documents sharing a key (what a conversion to unique refuses). */
  duplicateGroups(): string[][] {
    return this.uniqueKeys?.duplicateGroups() ?? [];
  }

  /**
   * Unique indexes: the document whose key equals `values` (one per field, in key order), from the
   * uniqueness map. Same keys as `load` builds, so a point look-up costs one `Map` get.
   */
  uniqueOwner(values: unknown[]): string | undefined {
    // The collection keys its documents by the encoded `_id`: the caller's look-up is the check.
    if (this.isIdIndex) return encodeKey(values[0]);
    return this.uniqueKeys?.owner(compoundKeyOf(values)); // only unique indexes are asked
  }

  /** Throws MongoDB's E11000 if `doc` would collide with a different document. */
  checkUnique(doc: Document, id: string): void {
    if (!this.uniqueKeys) return;
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
    const unique = this.uniqueKeys;
    if (unique) for (const { key } of compoundKeys(this.fields, doc)) unique.release(key, id);
    const ttl = this.ttl;
    if (ttl) for (const v of pathValues(doc, this.leading)) ttl.unpost(encodeKey(v), id);
  }

  /**
   * Documents whose TTL field (a date, or the earliest date in an array) is at or before the
   * cutoff. Only the dates that came due are visited; the caller removes the documents returned.
   */
  expiredIds(cutoffMs: number): string[] {
    return this.ttl?.expiredIds(cutoffMs) ?? [];
  }
}
