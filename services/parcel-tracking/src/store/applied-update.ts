import { Schema, type Connection, type Model } from 'mongoose';

/** The answer ApplyTrackingUpdate gave for one webhook event, so a retry gets the same one. */
export interface AppliedUpdateDocument {
  tenant_id: string;
  webhook_event_id: number;
  integration_instance_id: number;
  outcome: string;
  status_from: string;
  status_to: string;
  tracking_id: number;
  created_at: Date;
}

const schema = new Schema<AppliedUpdateDocument>(
  {
    tenant_id: { type: String, required: true },
    webhook_event_id: { type: Number, required: true },
    integration_instance_id: { type: Number, required: true },
    outcome: { type: String, required: true },
    status_from: { type: String, default: '' },
    status_to: { type: String, default: '' },
    tracking_id: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'applied_updates' },
);
schema.index({ tenant_id: 1, webhook_event_id: 1 }, { unique: true });

export type AppliedUpdate = Omit<AppliedUpdateDocument, 'tenant_id' | 'created_at'>;

export function appliedUpdateModel(connection: Connection): Model<AppliedUpdateDocument> {
  return connection.model<AppliedUpdateDocument>('AppliedUpdate', schema);
}
