import type { Document } from 'bson';
import { invalidNamespace, namespaceExists } from '../errors.js';
import { typedForm } from '../numeric/types.js';
import { overflow, type CollectionOptions } from './capped.js';
import { Collection } from './collection.js';
import type { IndexSpec } from './index-store.js';
import type { Journal } from './journal.js';
import type { JournalRecord } from './journal-records.js';

/** Databases and collections; every mutation goes through here so it is journaled exactly once. */
export class Catalog {
  private readonly dbs = new Map<string, Map<string, Collection>>();
  private replaying = false;

  constructor(private readonly journal?: Journal) {}

  private log(rec: JournalRecord): void {
    if (this.journal && !this.replaying) this.journal.append(rec);
  }

  databaseNames(): string[] {
    return [...this.dbs.keys()];
  }

  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  get(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  /** Implicit creation on first write, as MongoDB does. */
  getOrCreate(db: string, name: string): Collection {
    return this.get(db, name) ?? this.createCollection(db, name);
  }

  /** InvalidNamespace (73) for a name no collection can have. */
  assertValidNamespace(db: string, name: string): void {
    if (
      !name ||
      /[$\0]/.test(name) ||
      name.startsWith('system.') ||
      !db ||
      /[/\\. "$\0]/.test(db)
    ) {
      throw invalidNamespace(`Invalid namespace specified '${db}.${name}'`);
    }
  }

  /**
   * The collection, or an empty one outside the catalog when it does not exist: what an update
   * or findAndModify reads, which creates the collection only when it inserts (MongoDB creates
   * none for a write that matches nothing and does not upsert).
   */
  getOrEmpty(db: string, name: string): Collection {
    this.assertValidNamespace(db, name);
    return this.get(db, name) ?? new Collection(db, name);
  }

  createCollection(
    db: string,
    name: string,
    { failIfExists = false, options = {} as CollectionOptions } = {},
  ): Collection {
    this.assertValidNamespace(db, name);
    const existing = this.get(db, name);
    if (existing) {
      if (failIfExists) throw namespaceExists(existing.ns);
      return existing;
    }
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    const coll = new Collection(db, name, options);
    colls.set(name, coll);
    this.log({ o: 'createColl', db, c: name, ...optionsRecord(options) });
    return coll;
  }

  dropCollection(db: string, name: string): boolean {
    const colls = this.dbs.get(db);
    if (!colls?.delete(name)) return false;
    if (colls.size === 0) this.dbs.delete(db);
    this.log({ o: 'dropColl', db, c: name });
    return true;
  }

  /** `collMod`: the collection's options replaced whole, journaled. */
  setOptions(coll: Collection, options: CollectionOptions): void {
    coll.options = options;
    this.log({ o: 'collOpts', db: coll.db, c: coll.name, opts: options });
  }

  dropDatabase(db: string): void {
    if (this.dbs.delete(db)) this.log({ o: 'dropDb', db });
  }

  /**
   * Moves a collection (documents, indexes, numeric types) to another namespace, as journaled
   * creates, puts and a drop, so a replay rebuilds the result. The caller has checked the names.
   */
  renameCollection(from: Collection, toDb: string, to: string): void {
    const target = this.createCollection(toDb, to, { options: from.options });
    for (const idx of from.indexes.values())
      if (idx.name !== '_id_') this.createIndex(target, idx.spec);
    for (const doc of from.docs.values()) this.insert(target, doc);
    this.dropCollection(from.db, from.name);
  }

  /** Replaces a collection (created if missing) by `staged`'s indexes and documents, journaled. */
  replaceContents(db: string, name: string, staged: Collection): void {
    // The target keeps its options (a validator, say), as `$out` keeps them in MongoDB.
    const options = this.get(db, name)?.options ?? {};
    this.dropCollection(db, name);
    const target = this.createCollection(db, name, { options });
    for (const idx of staged.indexes.values())
      if (idx.name !== '_id_') this.createIndex(target, idx.spec);
    for (const doc of staged.docs.values()) this.insert(target, doc);
  }

  /** `rawDoc`, when given, must be the exact BSON `doc` was decoded from (see `Journal.appendPut`). */
  insert(coll: Collection, doc: Document, rawDoc?: Uint8Array): void {
    coll.insert(doc);
    if (this.journal && !this.replaying)
      this.journal.appendPut(coll.db, coll.name, rawDoc ? doc : typedForm(doc), rawDoc);
    // A capped collection drops its oldest documents to make room (journaled as deletes).
    if (coll.options.capped) for (const old of overflow(coll)) this.remove(coll, old);
  }

  replace(coll: Collection, oldDoc: Document, newDoc: Document): void {
    coll.replace(oldDoc, newDoc);
    this.log({ o: 'put', db: coll.db, c: coll.name, d: typedForm(newDoc) });
  }

  remove(coll: Collection, doc: Document): void {
    if (coll.remove(doc)) this.log({ o: 'del', db: coll.db, c: coll.name, id: doc._id });
  }

  createIndex(coll: Collection, spec: IndexSpec): boolean {
    const created = coll.createIndex(spec);
    if (created) this.log({ o: 'createIndex', db: coll.db, c: coll.name, spec });
    return created;
  }

  /** `collMod` of an index's `hidden` flag, journaled. */
  setIndexHidden(coll: Collection, name: string, hidden: boolean): void {
    setHidden(coll, name, hidden);
    this.log({ o: 'hideIndex', db: coll.db, c: coll.name, name, hidden });
  }

  /** `collMod` of an index's `expireAfterSeconds` (a TTL index's, or one made TTL), journaled. */
  setIndexExpiry(coll: Collection, name: string, seconds: number): void {
    setExpiry(coll, name, seconds);
    this.log({ o: 'ttlIndex', db: coll.db, c: coll.name, name, seconds });
  }

  /**
   * `collMod` of an index's `prepareUnique` flag, or its conversion to unique (which clears
   * `prepareUnique`, as MongoDB does), journaled. The caller has checked for duplicates.
   */
  setIndexUnique(
    coll: Collection,
    name: string,
    change: { prepareUnique?: boolean; unique?: true },
  ): void {
    setUnique(coll, name, change);
    this.log({ o: 'uniqueIndex', db: coll.db, c: coll.name, name, ...change });
  }

  dropIndex(coll: Collection, name: string): void {
    coll.dropIndex(name);
    this.log({ o: 'dropIndex', db: coll.db, c: coll.name, name });
  }

  /** Rebuilds state from journal records without re-journaling or re-checking constraints. */
  replay(records: JournalRecord[]): void {
    this.replaying = true;
    try {
      for (const r of records) this.apply(r);
    } finally {
      this.replaying = false;
    }
  }

  private apply(r: JournalRecord): void {
    switch (r.o) {
      case 'createColl':
        this.createCollection(r.db, r.c, { options: (r.opts ?? {}) as CollectionOptions });
        return;
      case 'dropColl':
        this.dropCollection(r.db, r.c);
        return;
      case 'collOpts': {
        const coll = this.get(r.db, r.c);
        if (coll) coll.options = r.opts as CollectionOptions;
        return;
      }
      case 'dropDb':
        this.dropDatabase(r.db);
        return;
      case 'createIndex':
        this.getOrCreate(r.db, r.c).createIndex(r.spec as IndexSpec, { check: false });
        return;
      case 'hideIndex': {
        const coll = this.get(r.db, r.c);
        if (coll?.indexes.has(r.name)) setHidden(coll, r.name, r.hidden);
        return;
      }
      case 'ttlIndex': {
        const coll = this.get(r.db, r.c);
        if (coll?.indexes.has(r.name)) setExpiry(coll, r.name, r.seconds);
        return;
      }
      case 'uniqueIndex': {
        const coll = this.get(r.db, r.c);
        if (coll?.indexes.has(r.name))
          setUnique(coll, r.name, { prepareUnique: r.prepareUnique, unique: r.unique });
        return;
      }
      case 'dropIndex':
        if (this.get(r.db, r.c)?.indexes.has(r.name)) this.get(r.db, r.c)!.dropIndex(r.name);
        return;
      case 'put':
        this.getOrCreate(r.db, r.c).insert(r.d, { check: false });
        return;
      case 'del':
        this.get(r.db, r.c)?.remove({ _id: r.id });
        return;
    }
  }

  /** The whole state as records, for writing a snapshot. */
  *snapshot(): Generator<JournalRecord> {
    for (const [db, colls] of this.dbs) {
      for (const coll of colls.values()) {
        yield { o: 'createColl', db, c: coll.name, ...optionsRecord(coll.options) };
        for (const idx of coll.indexes.values()) {
          if (idx.name !== '_id_') yield { o: 'createIndex', db, c: coll.name, spec: idx.spec };
        }
        for (const d of coll.docs.values()) yield { o: 'put', db, c: coll.name, d: typedForm(d) };
      }
    }
  }

  /** TTL sweep: removes documents whose indexed date is older than expireAfterSeconds. */
  expire(nowMs: number): number {
    let removed = 0;
    for (const colls of this.dbs.values()) {
      for (const coll of colls.values()) {
        for (const idx of coll.indexes.values()) {
          const ttl = idx.spec.expireAfterSeconds;
          if (typeof ttl !== 'number' || idx.fields.length !== 1) continue;
          for (const id of idx.expiredIds(nowMs - ttl * 1000)) {
            const doc = coll.docs.get(id);
            if (doc) {
              this.remove(coll, doc);
              removed++;
            }
          }
        }
      }
    }
    return removed;
  }
}

/** MongoDB lists `hidden: true` while an index is hidden and drops the field when it is shown again. */
function setHidden(coll: Collection, name: string, hidden: boolean): void {
  const spec = coll.indexes.get(name)!.spec;
  if (hidden) spec.hidden = true;
  else delete spec.hidden;
}

/**
 * A TTL index takes the new value as it is. A single-field index made TTL is built again with
 * the option, so its entries join the expiry queue (MongoDB 5.1+ converts in place).
 */
function setExpiry(coll: Collection, name: string, seconds: number): void {
  const idx = coll.indexes.get(name)!;
  if (typeof idx.spec.expireAfterSeconds === 'number') {
    idx.spec.expireAfterSeconds = seconds;
    return;
  }
  const spec = { ...idx.spec, expireAfterSeconds: seconds };
  coll.dropIndex(name);
  coll.createIndex(spec, { check: false });
}

/**
 * The index is built again under its new options (its uniqueness map changes form), in the same
 * place among the collection's indexes, so `listIndexes` keeps its order.
 */
function setUnique(
  coll: Collection,
  name: string,
  { prepareUnique, unique }: { prepareUnique?: boolean; unique?: true },
): void {
  const spec = { ...coll.indexes.get(name)!.spec };
  if (unique) {
    spec.unique = true;
    delete spec.prepareUnique;
  } else if (prepareUnique) spec.prepareUnique = true;
  else delete spec.prepareUnique;
  const order = [...coll.indexes.entries()];
  coll.dropIndex(name);
  coll.createIndex(spec, { check: false });
  const rebuilt = coll.indexes.get(name)!;
  coll.indexes.clear();
  for (const [n, idx] of order) coll.indexes.set(n, n === name ? rebuilt : idx);
}

const optionsRecord = (options: CollectionOptions): { opts?: CollectionOptions } =>
  Object.keys(options).length > 0 ? { opts: options } : {};
