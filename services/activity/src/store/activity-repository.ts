import {
  nextSequence,
  TenantScopedRepository,
  type ScopedFilter,
  type Retention,
} from '@inventory/platform';
import { Schema, type Connection } from 'mongoose';
import type { ActivityQuery } from '../domain/activity-query.js';
import { activityConditions, activitySort } from './activity-filter.js';
import { insertOnce } from './insert-once.js';

export interface ActivityDocument {
  id: number;
  tenant_id: string;
  /** The event id (or `rpc:<idempotency key>`) the row came from; unique per tenant, so a redelivery never doubles a row. */
  source_id: string;
  event: string;
  description: string;
  subject_type: string | null;
  subject_id: number | null;
  causer_id: string | null;
  properties: Record<string, unknown>;
  created_at: Date;
  /**
   * When this service stored the row: what retention counts from (`created_at` is when the
   * event happened, which a backfill can put years back). Absent on rows stored before it was.
   */
  stored_at?: Date;
}

const schema = new Schema<ActivityDocument>(
  {
    id: { type: Number, required: true },
    tenant_id: { type: String, required: true },
    source_id: { type: String, required: true },
    event: { type: String, required: true },
    description: { type: String, default: '' },
    subject_type: { type: String, default: null },
    subject_id: { type: Number, default: null },
    causer_id: { type: String, default: null },
    properties: { type: Schema.Types.Mixed, default: () => ({}) },
    created_at: { type: Date, required: true },
    stored_at: { type: Date },
  },
  // `minimize: false` keeps an empty properties object instead of dropping the field.
  { versionKey: false, collection: 'activities', minimize: false },
);

schema.index({ tenant_id: 1, id: 1 }, { unique: true });
schema.index({ tenant_id: 1, source_id: 1 }, { unique: true });
// The instance log is an $or of these two; each branch has its own index.
schema.index({ tenant_id: 1, subject_type: 1, subject_id: 1, created_at: -1 });
schema.index({ tenant_id: 1, 'properties.integration_instance_id': 1, created_at: -1 });
// The default sort and date bounds.
schema.index({ tenant_id: 1, created_at: -1, id: -1 });
schema.index({ tenant_id: 1, event: 1, created_at: -1 });

export type NewActivity = Omit<ActivityDocument, 'id' | 'tenant_id' | 'stored_at'>;

const WITHOUT_MONGO_ID = { _id: 0 } as const;

/** The tenant's activity log; every query goes through `TenantScopedRepository`. */
export class ActivityRepository extends TenantScopedRepository<ActivityDocument> {
  constructor(private readonly connection: Connection) {
    // A second repository on the same connection reuses the model (mongoose refuses a redefinition).
    super(connection.models.Activity ?? connection.model<ActivityDocument>('Activity', schema));
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
