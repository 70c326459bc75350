import type { FilterQuery, Model, ProjectionType, SortOrder, UpdateQuery } from 'mongoose';

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

/**
 * The base of every repository over tenant-owned documents (the idea of novu's
 * `BaseRepository` and its enforced organisation id, at the size this code base
 * needs). Every query method takes the tenant id first, so forgetting it does not
 * compile, and `scope()` spreads the tenant LAST, so no filter a caller builds
 * (even one cast past the types, or built from input) can point a query at
 * another tenant. The methods are protected: a subclass exposes named operations
 * (`findOwned`, `revoke`), and use cases never write a filter at all.
 */
export abstract class TenantScopedRepository<T extends TenantOwned> {
  protected constructor(protected readonly model: Model<T>) {}

  /** The filter sent to MongoDB: the caller's conditions, then the tenant, which always wins. */
  protected scope(tenantId: string, filter = {} as ScopedFilter<T>): FilterQuery<T> {
    if (typeof tenantId !== 'string' || tenantId.length === 0)
      throw new Error('a tenant id is required for every tenant-scoped query');
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

  /** Rows of one page and the total matching, in parallel. */
  protected async page(
    tenantId: string,
    filter: ScopedFilter<T>,
    options: { sort: Record<string, SortOrder>; page: number; perPage: number },
  ): Promise<{ rows: T[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.findMany(tenantId, filter, {
        sort: options.sort,
        skip: (options.page - 1) * options.perPage,
        limit: options.perPage,
      }),
      this.count(tenantId, filter),
    ]);
    return { rows, total };
  }

  protected async updateOne(
    tenantId: string,
    filter: ScopedFilter<T>,
    update: UpdateQuery<T>,
  ): Promise<{ matched: number; modified: number }> {
    const result = await this.model.updateOne(this.scope(tenantId, filter), update);
    return { matched: result.matchedCount, modified: result.modifiedCount };
  }

  /** The document after the update, or null when none of the tenant's matched. */
  protected async findOneAndUpdate(
    tenantId: string,
    filter: ScopedFilter<T>,
    update: UpdateQuery<T>,
  ): Promise<T | null> {
    return this.model
      .findOneAndUpdate(this.scope(tenantId, filter), update, { new: true })
      .lean<T>();
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

  /** One bulk write of updates, each scoped to the tenant; unordered. */
  protected async updateEach(
    tenantId: string,
    updates: Array<{ filter: ScopedFilter<T>; update: UpdateQuery<T> }>,
  ): Promise<void> {
    if (updates.length === 0) return;
    await this.model.bulkWrite(
      updates.map(({ filter, update }) => ({
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        updateOne: { filter: this.scope(tenantId, filter) as any, update: update as any },
      })),
      { ordered: false },
    );
  }
}
