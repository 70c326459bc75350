import {
  isDuplicateKeyError,
  TenantScopedRepository,
  type ScopedFilter,
} from '@inventory/platform';
import type { SortOrder, UpdateQuery } from 'mongoose';
import type { PageAndSort } from '../domain/list-query.js';

/** What every versioned read-model row carries besides its own fields. */
export interface VersionedRow {
  tenant_id: string;
  id: number;
  /** The version of the last event applied; events at or below it are ignored. */
  version: number;
  /** A tombstone: the record was deleted at `version` and is never listed again. */
  deleted: boolean;
}

/** A record's own fields, as the domain checked them: the repository adds the rest. */
export type Snapshot<Row extends VersionedRow> = Omit<Row, 'tenant_id' | 'version' | 'deleted'>;

const WITHOUT_MONGO_ID = { _id: 0 } as const;

/**
 * A read model of another area's records, fed by its events (ADR 0231): each (tenant, id) row
 * keeps the newest version applied, and a delete leaves a tombstone. The tenant is always the
 * event's, passed apart from the record.
 */
export abstract class VersionedRepository<
  Row extends VersionedRow,
> extends TenantScopedRepository<Row> {
  /** Stores the snapshot when `version` is newer than what is held; returns whether it did. */
  put(tenantId: string, record: Snapshot<Row>, version: number): Promise<boolean> {
    const { id, ...fields } = record;
    return this.applyVersioned(tenantId, id, version, { ...fields, deleted: false });
  }

  /** Leaves a tombstone at `version` (also for an id never seen, so its late create is ignored). */
  remove(tenantId: string, id: number, version: number): Promise<boolean> {
    return this.applyVersioned(tenantId, id, version, { deleted: true });
  }

  /** One page of the tenant's listed (not deleted) rows matching `conditions`, and their count. */
  protected async listLive<Field extends string>(
    tenantId: string,
    conditions: ScopedFilter<Row>,
    query: PageAndSort<Field>,
    column: (field: Field | 'id') => string = (field) => field,
  ): Promise<{ rows: Row[]; total: number }> {
    const filter = { ...conditions, deleted: false } as ScopedFilter<Row>;
    const sort: Record<string, SortOrder> = Object.fromEntries(
      query.sort.map((key) => [column(key.field), key.descending ? -1 : 1]),
    );
    return this.page(tenantId, filter, {
      projection: WITHOUT_MONGO_ID,
      sort,
      page: query.page,
      perPage: query.perPage,
    });
  }

  /** How many rows the tenant lists before any filter. */
  protected countLive(tenantId: string): Promise<number> {
    return this.count(tenantId, { deleted: false } as ScopedFilter<Row>);
  }

  /**
   * Writes `fields` onto the (tenant, id) row only when `version` is newer than the stored one;
   * the first event for an id creates the row (a delete creates a tombstone). One conditional
   * upsert, so concurrent or redelivered events cannot interleave: an older event either matches
   * nothing and collides with the unique (tenant_id, id) index, or is outrun by the newer write.
   * Returns whether the row changed.
   */
  private async applyVersioned(
    tenantId: string,
    id: number,
    version: number,
    fields: Record<string, unknown>,
  ): Promise<boolean> {
    // The id and the tenant come from the filter on insert; they are never rewritten.
    const filter = { id, version: { $lt: version } } as ScopedFilter<Row>;
    try {
      const result = await this.upsertOne(tenantId, filter, {
        $set: { ...fields, version },
      } as UpdateQuery<Row>);
      return result.modified + result.upserted > 0;
    } catch (error) {
      // The row exists with this or a newer version: the upsert collided with it.
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }
}
