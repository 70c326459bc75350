import { Schema, type Connection, type Model } from 'mongoose';

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

schema.index({ tenant_id: 1, source_id: 1 }, { unique: true });
// Led by the shard key (deploy/SCALING.md), as a sharded collection's unique index must be; the
// id itself is unique because the counter hands each one out once (ADR 0237).
schema.index({ tenant_id: 1, source_id: 1, id: 1 }, { unique: true });
// The instance log is an $or of these two; each branch has its own index.
schema.index({ tenant_id: 1, subject_type: 1, subject_id: 1, created_at: -1 });
schema.index({ tenant_id: 1, 'properties.integration_instance_id': 1, created_at: -1 });
// The default sort and date bounds.
schema.index({ tenant_id: 1, created_at: -1, id: -1 });
schema.index({ tenant_id: 1, event: 1, created_at: -1 });

/** Indexes the schema no longer declares, dropped at start. */
export const RETIRED_ACTIVITY_INDEXES = [
  // ADR 0237: a unique index of a sharded collection starts with its shard key.
  'tenant_id_1_id_1',
];

export type NewActivity = Omit<ActivityDocument, 'id' | 'tenant_id' | 'stored_at'>;

/**
 * The `activities` collection's model on a connection (kept private by `ActivityRepository`); a
 * second repository on the same connection reuses it (mongoose refuses a redefinition).
 */
export function activityModel(connection: Connection): Model<ActivityDocument> {
  return (
    (connection.models.Activity as Model<ActivityDocument> | undefined) ??
    connection.model<ActivityDocument>('Activity', schema)
  );
}
