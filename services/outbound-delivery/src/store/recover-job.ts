import { Schema, type Connection, type Model } from 'mongoose';

export interface RecoverJobDocument {
  id: string;
  tenant_id: string;
  subscription_id: number;
  since: Date;
  /** The failed deliveries found at the start, oldest first: the job's fixed work list. */
  delivery_ids: string[];
  /** How many of `delivery_ids` have been sent again (the job's position). */
  sent: number;
  status: 'running' | 'completed';
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const schema = new Schema<RecoverJobDocument>(
  {
    id: { type: String, required: true },
    tenant_id: { type: String, required: true },
    subscription_id: { type: Number, required: true },
    since: { type: Date, required: true },
    delivery_ids: { type: [String], required: true },
    sent: { type: Number, required: true },
    status: { type: String, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    finished_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'recover_jobs', minimize: false },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ tenant_id: 1, subscription_id: 1, created_at: -1 });
schema.index({ status: 1 }, { partialFilterExpression: { status: 'running' } });

/** The `recover_jobs` collection's model on a connection (kept private by its repository). */
export function recoverJobModel(connection: Connection): Model<RecoverJobDocument> {
  return connection.model<RecoverJobDocument>('RecoverJob', schema);
}
