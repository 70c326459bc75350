import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A disconnected instance, remembered after its instance document is deleted: its rows (here,
 * in webhook-ingest and in activity) are kept read-only, and the tenant's next instance lists
 * them as its history (ADR 0215).
 */
export interface InstanceHistoryDocument {
  tenant_id: string;
  instance_id: number;
  disconnected_at: Date;
}

const schema = new Schema<InstanceHistoryDocument>(
  {
    tenant_id: { type: String, required: true },
    instance_id: { type: Number, required: true },
    disconnected_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'instance_history' },
);
schema.index({ tenant_id: 1, instance_id: 1 }, { unique: true });

export function instanceHistoryModel(connection: Connection): Model<InstanceHistoryDocument> {
  return connection.model<InstanceHistoryDocument>('InstanceHistory', schema);
}
