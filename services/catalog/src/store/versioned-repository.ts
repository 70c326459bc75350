import { TenantScopedRepository, type ScopedFilter } from '@inventory/platform';
import type { mongo, SortOrder } from 'mongoose';
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

/** One event's change to a (tenant, id) row: a snapshot to store, or a delete. */
export type VersionedChange<Row extends VersionedRow> = { tenantId: string; version: number } & (
  { snapshot: Snapshot<Row> } | { deleted: number }
);

const WITHOUT_MONGO_ID = { _id: 0 } as const;

/**
 * A read model of another area's records, fed by its events (ADR 0231): each (tenant, id) row
 * keeps the newest version applied, and a delete leaves a tombstone. The tenant is always the
 * event's, passed apart from the record.
 */
export abstract class VersionedRepository<
  Row extends VersionedRow,
> extends TenantScopedRepository<Row> {
  /**
   * Applies changes of any tenants and rows in one unordered bulk write (ADR 0238), each a
   * version-checked conditional upsert: the row takes a change only when its version is newer
   * than the stored one, and the first change for an id creates the row (a delete creates a
   * tombstone). Several changes of one row are first collapsed to the newest (the first of equal
   * versions, as one at a time would keep), so the order of the writes never matters. Answers how
   * many rows changed. A write colliding with the unique (tenant_id, id) index is an older change
   * (the row holds this or a newer version) and is ignored; any other failure throws, and the
   * whole call may be repeated: what it already wrote makes the repeat a no-op.
   */
  async applyAll(changes: ReadonlyArray<VersionedChange<Row>>): Promise<number> {
    const newest = new Map<string, { id: number; change: VersionedChange<Row> }>();
    for (const change of changes) {
      const id = 'deleted' in change ? change.deleted : change.snapshot.id;
      // Tenant ids are free text: the pair is encoded so no two distinct pairs share a key.
      const key = JSON.stringify([change.tenantId, id]);
      const held = newest.get(key);
      if (!held || held.change.version < change.version) newest.set(key, { id, change });
    }
    if (newest.size === 0) return 0;
    const operations = [...newest.values()].map(({ id, change }) => {
      const fields =
        'deleted' in change ? { deleted: true } : { ...withoutId(change.snapshot), deleted: false };
      // The id and the tenant come from the filter on insert; they are never rewritten.
      const filter = this.scope(change.tenantId, {
        id,
        version: { $lt: change.version },
      } as ScopedFilter<Row>) as mongo.Filter<Row>;
      return {
        updateOne: {
          filter,
          update: { $set: { ...fields, version: change.version } } as mongo.UpdateFilter<Row>,
          upsert: true,
        },
      };
    });
    try {
      const result = await this.driverCollection().bulkWrite(operations, { ordered: false });
      return result.modifiedCount + result.upsertedCount;
    } catch (error) {
      if (!onlyOlderChanges(error)) throw error;
      const result = (error as mongo.MongoBulkWriteError).result;
      return result.modifiedCount + result.upsertedCount;
    }
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
}

function withoutId<Fields extends { id: number }>(snapshot: Fields): Omit<Fields, 'id'> {
  const { id: _id, ...fields } = snapshot;
  return fields;
}

/**
 * A bulk write whose only failures are duplicate keys on the unique (tenant_id, id) index: each
 * such upsert matched no row because the row holds its version or a newer one. A write concern
 * error or any other write error is a real failure (its changes may be missing).
 */
function onlyOlderChanges(error: unknown): boolean {
  const bulk = error as Partial<mongo.MongoBulkWriteError> | null;
  if (!bulk || typeof bulk !== 'object' || !bulk.result) return false;
  // A write concern error is reported only when there are no write errors: asked for apart.
  if (bulk.result.getWriteConcernError()) return false;
  const writeErrors = ([] as Array<{ code?: number }>).concat(bulk.writeErrors ?? []);
  return writeErrors.length > 0 && writeErrors.every((writeError) => writeError.code === 11000);
}
