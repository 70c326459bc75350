import { Schema, type Connection, type Model } from 'mongoose';

/**
 * The answer ApplyTrackingUpdate gave for one processing of a webhook event, so a retry gets the
 * same one. The key is the event and its generation (ADR 0230): a reprocess is the next
 * generation, evaluated again; rows written before generations existed are generation 0.
 */
export interface AppliedUpdateDocument {
  tenant_id: string;
  webhook_event_id: number;
  generation: number;
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
    generation: { type: Number, default: 0 },
    integration_instance_id: { type: Number, required: true },
    outcome: { type: String, required: true },
    status_from: { type: String, default: '' },
    status_to: { type: String, default: '' },
    tracking_id: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'applied_updates' },
);
schema.index({ tenant_id: 1, webhook_event_id: 1, generation: 1 }, { unique: true });

/** Indexes the schema no longer declares, dropped at start (the key before generations). */
export const RETIRED_APPLIED_UPDATE_INDEXES = ['tenant_id_1_webhook_event_id_1'];

/** The key of one processing of a webhook event. */
export const appliedKey = (webhookEventId: number, generation = 0) =>
  `${webhookEventId}:${generation}`;

export type AppliedUpdate = Omit<
  AppliedUpdateDocument,
  'tenant_id' | 'created_at' | 'generation'
> & { generation?: number };

export function appliedUpdateModel(connection: Connection): Model<AppliedUpdateDocument> {
  return connection.model<AppliedUpdateDocument>('AppliedUpdate', schema);
}
