import { ObjectId, type Document } from 'bson';
import { CommandError, DuplicateKeyError, badValue, indexNotFound } from '../errors.js';
import type { CollectionOptions } from './capped.js';
import { checkIndexConflict } from './index-conflicts.js';
import { IndexStore, type IndexSpec } from './index-store.js';
import { executeFind } from './query-exec.js';
import { encodeKey } from './values.js';

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/**
 * Documents of one collection in natural (insertion) order plus their indexes.
 * Stored documents are never mutated in place: writers build a new document and swap it in,
 * so cursors holding earlier results are unaffected and a failed check leaves no trace.
 */
export class Collection {
  readonly docs = new Map<string, Document>();
  readonly indexes = new Map<string, IndexStore>();
  /**
   * Natural position of each stored document (kept when it is replaced), so index entries with
   * equal keys stay in natural order, as MongoDB's RecordIds keep them.
   */
  private readonly positions = new Map<string, number>();
  private nextPosition = 0;

  constructor(
    readonly db: string,
    readonly name: string,
    /** Replaced whole by `collMod` (through the catalog, which journals it). */
    public options: CollectionOptions = {},
  ) {
    // `_id` uniqueness is `docs` itself: the index keeps only its ordered entries, built on first use.
    this.indexes.set(
      ID_INDEX.name,
      new IndexStore({ ...ID_INDEX, unique: true }, this.ns, true, () => this.stored()),
    );
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  static idKey(doc: Document): string {
    return encodeKey(doc._id);
  }

  /** Matching documents in natural order, found through the best index when one helps. */
  find(filter: Document = {}): Document[] {
    return executeFind(this, { filter }).docs;
  }

  /** Every document with its id and natural position (what the `_id` index is built from). */
  private *stored(): Generator<[string, Document, number]> {
    for (const [id, doc] of this.docs) yield [id, doc, this.positionOf(id)];
  }

  private positionOf(id: string): number {
    let n = this.positions.get(id);
    if (n === undefined) this.positions.set(id, (n = this.nextPosition++));
    return n;
  }

  prepareInsert(doc: Document): Document {
    if (doc._id === undefined) doc = { _id: new ObjectId(), ...doc };
    // MongoDB always stores _id as the first field.
    else if (!idFirst(doc)) {
      const { _id, ...rest } = doc;
      doc = { _id, ...rest };
    }
    if (Array.isArray(doc._id)) throw badValue("can't use an array for _id");
    assertStorableId(doc._id);
    return doc;
  }

  /** Throws before touching anything if `doc` would violate a unique index. */
  checkUnique(doc: Document, ownId?: string): void {
    const id = ownId ?? Collection.idKey(doc);
    if (ownId === undefined && this.docs.has(id)) {
      throw new DuplicateKeyError(this.ns, '_id_', { _id: 1 }, { _id: doc._id });
    }
    for (const idx of this.indexes.values()) idx.checkUnique(doc, id);
  }

  /**
   * Each index computes the document's keys once (`load`), then checks them against its unique
   * constraint and, only when every index has passed, records them (`addLoaded`).
   */
  insert(doc: Document, { check = true } = {}): void {
    const id = Collection.idKey(doc);
    if (check) {
      if (this.docs.has(id))
        throw new DuplicateKeyError(this.ns, '_id_', { _id: 1 }, { _id: doc._id });
      for (const idx of this.indexes.values()) {
        idx.load(doc);
        idx.checkLoaded(id);
      }
    } else {
      const existing = this.docs.get(id);
      if (existing) this.unindex(existing, id);
      for (const idx of this.indexes.values()) idx.load(doc);
    }
    this.docs.set(id, doc);
    const n = this.positionOf(id);
    for (const idx of this.indexes.values()) idx.addLoaded(id, n);
  }

  replace(oldDoc: Document, newDoc: Document, { check = true } = {}): void {
    const id = Collection.idKey(oldDoc);
    for (const idx of this.indexes.values()) {
      idx.load(newDoc);
      if (check) idx.checkLoaded(id);
    }
    this.unindex(oldDoc, id);
    this.docs.set(id, newDoc);
    const n = this.positionOf(id);
    for (const idx of this.indexes.values()) idx.addLoaded(id, n);
  }

  remove(doc: Document): boolean {
    const id = Collection.idKey(doc);
    const existing = this.docs.get(id);
    if (!existing) return false;
    this.unindex(existing, id);
    this.docs.delete(id);
    this.positions.delete(id);
    return true;
  }

  private unindex(doc: Document, id: string): void {
    const n = this.positionOf(id);
    for (const idx of this.indexes.values()) idx.remove(doc, id, n);
  }

  /** Builds the index fully before publishing it, so a duplicate in existing data leaves no half-built index. */
  createIndex(spec: IndexSpec, { check = true } = {}): boolean {
    // Replay trusts the journal (it may predate the conflict checks): only skip a known name.
    if (!check && this.indexes.has(spec.name)) return false;
    const existing = [...this.indexes.values()].map((i) =>
      // The _id index is unique by nature, not by an option a request would repeat.
      i.name === ID_INDEX.name ? ID_INDEX : i.spec,
    );
    if (check && checkIndexConflict(existing, spec) === 'exists') return false;
    const idx = new IndexStore(spec, this.ns);
    // prepareUnique keeps the duplicates already there; only later writes are checked.
    const checked = spec.prepareUnique !== true || !!spec.unique;
    for (const [id, doc] of this.docs) {
      idx.load(doc);
      if (checked) idx.checkLoaded(id);
      idx.addLoaded(id, this.positionOf(id));
    }
    this.indexes.set(spec.name, idx);
    return true;
  }

  dropIndex(name: string): void {
    if (name === '_id_') throw badValue('cannot drop _id index');
    if (!this.indexes.delete(name)) throw indexNotFound(`index not found with name [${name}]`);
  }

  /** The indexes the planner may choose: all but the hidden ones. */
  plannableIndexes(): Iterable<IndexStore> {
    for (const idx of this.indexes.values())
      if (idx.spec.hidden) return [...this.indexes.values()].filter((i) => !i.spec.hidden);
    return this.indexes.values();
  }

  findIndexByKey(key: Document): IndexStore | undefined {
    const want = encodeKey(key);
    return [...this.indexes.values()].find((i) => encodeKey(i.spec.key) === want);
  }

  indexSpecs(): IndexSpec[] {
    return [...this.indexes.values()].map((i) => {
      const { unique, ...rest } = i.spec;
      return i.name === '_id_' ? rest : { ...rest, ...(unique ? { unique } : {}) };
    });
  }
}

/** Whether `_id` is the first own key, without building the key list. */
function idFirst(doc: Document): boolean {
  for (const k in doc) return k === '_id' && Object.hasOwn(doc, k);
  return false;
}

/** MongoDB refuses (52, DollarPrefixedFieldName) an `_id` document with a `$`-prefixed field. */
export function assertStorableId(id: unknown): void {
  if (!id || typeof id !== 'object' || Array.isArray(id) || id instanceof Date) return;
  const proto = Object.getPrototypeOf(id) as unknown;
  if (proto !== Object.prototype && proto !== null) return;
  for (const [k, v] of Object.entries(id)) {
    if (k.startsWith('$'))
      throw new CommandError(
        52,
        'DollarPrefixedFieldName',
        `_id fields may not contain '$'-prefixed fields: ${k} is not valid for storage.`,
      );
    assertStorableId(v);
  }
}
