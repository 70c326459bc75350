import { Schema, type Connection, type Model } from 'mongoose';

/** The log filter a job reprocesses (the log endpoint's filters, days as bounds). */
export interface ReprocessJobFilter {
  event_types: string[];
  results: string[];
  tracking_number: string;
  received_from: Date | null;
  received_to: Date | null;
}

/**
 * A bulk reprocess of the webhook log (ADR 0230), on the shape of outbound-delivery's recover
 * jobs (ADR 0415) with a lease: its rows are the filter's up to `up_to_id` (fixed at the start),
 * walked in id order; `after_id` is its position. Progress is counted from the rows it marked.
 */
export interface ReprocessJobDocument {
  id: string;
  tenant_id: string;
  integration_instance_id: number;
  /** The instance and its history (a reconnected instance's earlier rows, ADR 0215). */
  instance_ids: number[];
  filter: ReprocessJobFilter;
  up_to_id: number;
  after_id: number;
  /** Rows matching at the start; once every row is put back, the number put back. */
  total: number;
  /** Set when the job completes (while it runs, they are counted from its rows). */
  queued: number;
  done: number;
  /** `queueing` while rows are put back, `waiting` for their results, then `completed`. */
  phase: 'queueing' | 'waiting' | 'completed';
  lease_owner: string | null;
  lease_until: Date;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const schema = new Schema<ReprocessJobDocument>(
  {
    id: { type: String, required: true },
    tenant_id: { type: String, required: true },
    integration_instance_id: { type: Number, required: true },
    instance_ids: { type: [Number], required: true },
    filter: { type: Schema.Types.Mixed, required: true },
    up_to_id: { type: Number, required: true },
    after_id: { type: Number, required: true },
    total: { type: Number, required: true },
    queued: { type: Number, default: 0 },
    done: { type: Number, default: 0 },
    phase: { type: String, required: true },
    lease_owner: { type: String, default: null },
    lease_until: { type: Date, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    finished_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'webhook_reprocess_jobs', minimize: false },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ phase: 1, lease_until: 1 });

/** The `webhook_reprocess_jobs` collection's model (kept private by its repository). */
export function reprocessJobModel(connection: Connection): Model<ReprocessJobDocument> {
  return (
    (connection.models.ReprocessJob as Model<ReprocessJobDocument> | undefined) ??
    connection.model<ReprocessJobDocument>('ReprocessJob', schema)
  );
}
