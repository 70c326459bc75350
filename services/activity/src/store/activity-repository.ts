import {
  nextSequence,
  TenantScopedRepository,
  type ScopedFilter,
  type Retention,
} from '@inventory/platform';
import type { Connection } from 'mongoose';
import type { ActivityQuery } from '../domain/activity-query.js';
import { activityConditions, activitySort } from './activity-queries.js';
import {
  activityModel,
  RETIRED_ACTIVITY_INDEXES,
  type ActivityDocument,
  type NewActivity,
} from './activity.js';
import { insertOnce } from './insert-once.js';

const WITHOUT_MONGO_ID = { _id: 0 } as const;

/** The tenant's activity log; every query goes through `TenantScopedRepository`. */
export class ActivityRepository extends TenantScopedRepository<ActivityDocument> {
  constructor(private readonly connection: Connection) {
    super(activityModel(connection));
  }
  /** Drops the retired indexes still present; answers the names dropped. */
  dropRetiredIndexes(): Promise<string[]> {
    return this.dropIndexes(RETIRED_ACTIVITY_INDEXES);
  }

  /** Entries stored more than `days` ago are deleted (`ACTIVITY_RETENTION_DAYS`). */
  retention(days: number): Retention {
    return this.retentionOf('stored_at', days);
  }

  /**
   * Stores a row once per (tenant, source_id). The tenant is the event's, passed apart so
   * that the row cannot be stored under another.
   */
  insertOnce(
    tenantId: string,
    activity: NewActivity,
  ): Promise<{ row: ActivityDocument; created: boolean }> {
    return insertOnce({
      find: () => this.findBySource(tenantId, activity.source_id),
      build: async () => ({
        ...activity,
        tenant_id: tenantId,
        id: await nextSequence(this.connection, 'activities'),
        stored_at: new Date(),
      }),
      insert: (row) => this.insertOne(row),
    });
  }

  async list(
    tenantId: string,
    query: ActivityQuery,
  ): Promise<{ rows: ActivityDocument[]; total: number }> {
    const filter: ScopedFilter<ActivityDocument> = activityConditions(query);
    return this.page(tenantId, filter, {
      projection: WITHOUT_MONGO_ID,
      sort: activitySort(query.sort),
      page: query.page,
      perPage: query.perPage,
    });
  }

  private findBySource(tenantId: string, sourceId: string): Promise<ActivityDocument | null> {
    return this.findOne(tenantId, { source_id: sourceId }, WITHOUT_MONGO_ID);
  }
}
