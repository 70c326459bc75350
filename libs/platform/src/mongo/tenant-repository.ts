import type { Retention } from './retention.js';
import type {
  FilterQuery,
  InsertManyOptions as MongooseInsertManyOptions,
  Model,
  mongo,
  PipelineStage,
  ProjectionType,
  SortOrder,
  UpdateQuery,
} from 'mongoose';
import { isDuplicateKeyError } from './tenant-scope.js';

/** Every tenant-owned document carries its tenant. */
export interface TenantOwned {
  tenant_id: string;
}

/**
 * A filter a repository method may write: anything but the tenant. `tenant_id`
 * is typed `never`, so naming it is a compile error; the tenant comes only from
 * the required `tenantId` argument.
 */
export type ScopedFilter<T> = Omit<FilterQuery<T>, 'tenant_id'> & { tenant_id?: never };

export interface FindOptions<T> {
  sort?: Record<string, SortOrder>;
  skip?: number;
  limit?: number;
  projection?: ProjectionType<T>;
}

export interface PageOptions<T> {
  sort: Record<string, SortOrder>;
  page: number;
  perPage: number;
  projection?: ProjectionType<T>;
}

export interface InsertManyOptions {
  /** `false`: the server tries every row whatever fails before it (still one round trip). */
  ordered?: boolean;
  /**
   * The rows go to the server as given (mongoose neither casts, defaults nor validates them, and
   * an `_id` the row names stays as it is): a hot path's batch, built complete by its repository.
   */
  lean?: boolean;
  /**
   * A row whose key is stored already is skipped rather than failing the write, so a redelivered
   * batch adds nothing (an idempotent insert by `_id` or a unique index); use with `ordered:
   * false`, so the rows after a duplicate are still written. Any other failure still throws.
   */
  skipDuplicates?: boolean;
}

/** MongoDB's IndexNotFound and NamespaceNotFound: nothing to drop. */
const NOTHING_TO_DROP = new Set([26, 27]);

/**
 * The base of every repository over tenant-owned documents (the idea of novu's
 * `BaseRepository` and its enforced organisation id, at the size this code base
 * needs). Every query method takes the tenant id first, so forgetting it does not
 * compile, and `scope()` spreads the tenant LAST, so no filter a caller builds
 * (even one cast past the types, or built from input) can point a query at
 * another tenant. The methods are protected: a subclass exposes named operations
 * (`findOwned`, `revoke`), and use cases never write a filter at all.
 *
 * Work that spans tenants (a worker's claim, resolving an inbound token) lives in methods named
 * `…AcrossTenants` and reaches the model only through `acrossTenants()`, so a search for that
 * name finds every cross-tenant query (a lint rule keeps `this.model` out of services' stores).
 */
export abstract class TenantScopedRepository<T extends TenantOwned> {
  protected constructor(protected readonly model: Model<T>) {}

  /** The filter sent to MongoDB: the caller's conditions, then the tenant, which always wins. */
  protected scope(tenantId: string, filter = {} as ScopedFilter<T>): FilterQuery<T> {
    requireTenant(tenantId);
    return { ...filter, tenant_id: tenantId } as FilterQuery<T>;
  }

  protected async findOne(
    tenantId: string,
    filter: ScopedFilter<T>,
    projection?: ProjectionType<T>,
  ): Promise<T | null> {
    return this.model.findOne(this.scope(tenantId, filter), projection).lean<T>();
  }

  protected async findMany(
    tenantId: string,
    filter: ScopedFilter<T>,
    options: FindOptions<T> = {},
  ): Promise<T[]> {
    let query = this.model.find(this.scope(tenantId, filter), options.projection);
    if (options.sort) query = query.sort(options.sort);
    if (options.skip) query = query.skip(options.skip);
    if (options.limit !== undefined) query = query.limit(options.limit);
    return query.lean<T[]>();
  }

  protected async count(tenantId: string, filter: ScopedFilter<T>): Promise<number> {
    return this.model.countDocuments(this.scope(tenantId, filter));
  }

  /** The model unscoped: only for methods named `…AcrossTenants` (see the class comment). */
  protected acrossTenants(): Model<T> {
    return this.model;
  }

  /**
   * The driver's collection, for the bulk writes that skip mongoose's per-document work (ADRs
   * 0224, 0406); each such write names its row's tenant itself (`scope(row.tenant_id, …)`).
   */
  protected driverCollection(): mongo.Collection<T> {
    return this.model.collection as unknown as mongo.Collection<T>;
  }

  /** Rows older than `days` by their `field` are deleted (`applyRetention` at start). */
  protected retentionOf(field: keyof T & string, days: number): Retention {
    return { collection: this.model.collection as unknown as mongo.Collection, field, days };
  }

  /**
   * Drops indexes a schema no longer declares (mongoose's `autoIndex` only ever adds), so writes
   * stop paying for them; answers the names dropped. Missing ones are skipped, so replicas
   * starting together race harmlessly. The declared indexes are built first: a unique rule that
   * moved to a new key pattern (ADR 0237) then holds throughout, also for the replicas of the
   * previous release still writing while the new one starts.
   */
  protected async dropIndexes(names: readonly string[]): Promise<string[]> {
    await this.model.init();
    const dropped: string[] = [];
    for (const name of names) {
      try {
        await this.driverCollection().dropIndex(name);
        dropped.push(name);
      } catch (error) {
        if (!NOTHING_TO_DROP.has((error as { code?: number }).code ?? -1)) throw error;
      }
    }
    return dropped;
  }

  /**
   * Rows of one page and the total matching, in parallel, through the driver as the webhook
   * path's reads are (ADR 0229; ADR 0716 for every list): each list's filter is built by its
   * repository from validated, typed input, so mongoose's casting had nothing to do, and building
   * its two `Query`s was a tenth of parcel-tracking's CPU per trackings page. The rows are what
   * `lean()` gave.
   */
  protected async page(
    tenantId: string,
    filter: ScopedFilter<T>,
    options: PageOptions<T>,
  ): Promise<{ rows: T[]; total: number }> {
    const collection = this.driverCollection();
    const scoped = this.scope(tenantId, filter) as mongo.Filter<T>;
    const [rows, total] = await Promise.all([
      collection
        .find(scoped, {
          sort: options.sort as mongo.Sort,
          skip: (options.page - 1) * options.perPage,
          limit: options.perPage,
          projection: options.projection as mongo.Document | undefined,
        })
        .toArray(),
      collection.countDocuments(scoped),
    ]);
    return { rows: rows as T[], total };
  }

  protected async exists(tenantId: string, filter: ScopedFilter<T>): Promise<boolean> {
    return (await this.model.exists(this.scope(tenantId, filter))) !== null;
  }

  protected async updateOne(
    tenantId: string,
    filter: ScopedFilter<T>,
    update: UpdateQuery<T>,
  ): Promise<{ matched: number; modified: number }> {
    const result = await this.model.updateOne(this.scope(tenantId, filter), keepTenant(update));
    return { matched: result.matchedCount, modified: result.modifiedCount };
  }

  /**
   * `updateOne` that inserts when none of the tenant's documents matched; the inserted row takes
   * its tenant from the scoped filter, whatever the caller's filter named.
   */
  protected async upsertOne(
    tenantId: string,
    filter: ScopedFilter<T>,
    update: UpdateQuery<T>,
  ): Promise<{ matched: number; modified: number; upserted: number }> {
    const result = await this.model.updateOne(this.scope(tenantId, filter), keepTenant(update), {
      upsert: true,
    });
    return {
      matched: result.matchedCount,
      modified: result.modifiedCount,
      upserted: result.upsertedCount,
    };
  }

  protected async updateMany(
    tenantId: string,
    filter: ScopedFilter<T>,
    update: UpdateQuery<T>,
  ): Promise<{ matched: number; modified: number }> {
    const result = await this.model.updateMany(this.scope(tenantId, filter), keepTenant(update));
    return { matched: result.matchedCount, modified: result.modifiedCount };
  }

  /**
   * The document after the update, or null when none of the tenant's matched. `sort` picks which
   * of several matches (a queue's oldest); `upsert` inserts for the tenant when none matched.
   */
  protected async findOneAndUpdate(
    tenantId: string,
    filter: ScopedFilter<T>,
    update: UpdateQuery<T>,
    options: { upsert?: boolean; sort?: Record<string, SortOrder> } = {},
  ): Promise<T | null> {
    return this.model
      .findOneAndUpdate(this.scope(tenantId, filter), keepTenant(update), {
        new: true,
        ...(options.upsert ? { upsert: true } : {}),
        ...(options.sort ? { sort: options.sort } : {}),
      })
      .lean<T>();
  }

  /** An aggregation over the tenant's documents: the scoped `$match` always runs first. */
  protected async aggregate<R>(
    tenantId: string,
    filter: ScopedFilter<T>,
    pipeline: PipelineStage[] = [],
  ): Promise<R[]> {
    return this.model.aggregate<R>([{ $match: this.scope(tenantId, filter) }, ...pipeline]);
  }

  protected async deleteOne(tenantId: string, filter: ScopedFilter<T>): Promise<number> {
    return (await this.model.deleteOne(this.scope(tenantId, filter))).deletedCount;
  }

  protected async deleteMany(tenantId: string, filter: ScopedFilter<T>): Promise<number> {
    return (await this.model.deleteMany(this.scope(tenantId, filter))).deletedCount;
  }

  /** One document; its type requires `tenant_id`, so a row is never stored without one. */
  protected async insertOne(document: T): Promise<void> {
    await this.model.create(document);
  }

  /**
   * One tenant's rows in one `insertMany`. Every row must name that tenant: a row of another
   * tenant (or none) refuses the whole batch before anything is written, so a batch can never
   * write across tenants. The check reads each row's `tenant_id` once and copies nothing.
   */
  protected async insertMany(
    tenantId: string,
    rows: ReadonlyArray<T & { _id?: unknown }>,
    options: InsertManyOptions = {},
  ): Promise<void> {
    if (rows.length === 0) return;
    requireTenant(tenantId);
    if (rows.some((row) => row.tenant_id !== tenantId))
      throw new Error('every row of one insertMany belongs to the given tenant');
    const driverOptions: MongooseInsertManyOptions = {};
    if (options.ordered !== undefined) driverOptions.ordered = options.ordered;
    if (options.lean) driverOptions.lean = true;
    try {
      await this.model.insertMany(rows as T[], driverOptions);
    } catch (error) {
      if (!(options.skipDuplicates && onlyDuplicateKeys(error))) throw error;
    }
  }

  /** One document the schema's defaults complete; answers the stored document. */
  protected async insertWithDefaults(document: Partial<T> & TenantOwned): Promise<T> {
    return (await this.model.create(document)).toObject() as T;
  }

  /** One bulk write of updates, each scoped to the tenant; unordered. */
  protected async updateEach(
    tenantId: string,
    updates: Array<{ filter: ScopedFilter<T>; update: UpdateQuery<T> }>,
  ): Promise<void> {
    if (updates.length === 0) return;
    await this.model.bulkWrite(
      updates.map(({ filter, update }) => ({
        updateOne: {
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          filter: this.scope(tenantId, filter) as any,
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          update: keepTenant(update) as any,
        },
      })),
      { ordered: false },
    );
  }
}

/**
 * An update may not write the tenant: a row never moves to another tenant, and an upserted row
 * takes its tenant from the scoped filter alone.
 */
function keepTenant<T>(update: UpdateQuery<T>): UpdateQuery<T> {
  const parts = [update, ...Object.values(update as Record<string, unknown>)];
  for (const part of parts)
    if (part && typeof part === 'object' && !Array.isArray(part) && 'tenant_id' in part)
      throw new Error('an update may not set tenant_id; the tenant comes from the scoped filter');
  return update;
}

function requireTenant(tenantId: string): void {
  if (typeof tenantId !== 'string' || tenantId.length === 0)
    throw new Error('a tenant id is required for every tenant-scoped query');
}

/**
 * A duplicate key, or a bulk insert whose every failed row was one. A bulk error's own `code` is
 * only its first row's, so its rows decide: a duplicate beside any other failure is not skipped.
 */
function onlyDuplicateKeys(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  if (!Array.isArray(writeErrors) || writeErrors.length === 0) return isDuplicateKeyError(error);
  return (writeErrors as Array<{ code?: number; err?: { code?: number } }>).every(
    (writeError) => (writeError.code ?? writeError.err?.code) === 11000,
  );
}
