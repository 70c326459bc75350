import { Schema, type Connection, type Model } from 'mongoose';
import type { KeptCheckpoint } from '../domain/checkpoints.js';

/**
 * One carrier checkpoint of one tracking row (`tracking_checkpoints`). Apart from the rows so the
 * trackings list and the dashboard never read them (ADR 0216); unique per row and checkpoint key,
 * so repeated and out-of-order pushes keep each checkpoint once.
 */
export interface CheckpointDocument extends KeptCheckpoint {
  tenant_id: string;
  tracking_id: number;
  recorded_at: Date;
  /** The last time the row took a new checkpoint: the retention counts from it. */
  touched_at: Date;
}

const schema = new Schema<CheckpointDocument>(
  {
    tenant_id: { type: String, required: true },
    tracking_id: { type: Number, required: true },
    key: { type: String, required: true },
    occurred_at: { type: Date, required: true },
    seq: { type: Number, default: 0 },
    description: { type: String, default: '' },
    location: { type: String, default: '' },
    status: { type: String, default: '' },
    sub_status: { type: String, default: '' },
    stage: { type: String, default: '' },
    recorded_at: { type: Date, required: true },
    touched_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'tracking_checkpoints' },
);
schema.index({ tenant_id: 1, tracking_id: 1, key: 1 }, { unique: true });
// The timeline read and the cap's trim: one row's checkpoints, newest first.
schema.index({ tenant_id: 1, tracking_id: 1, occurred_at: -1, seq: -1, key: 1 });

export function checkpointModel(connection: Connection): Model<CheckpointDocument> {
  return connection.model<CheckpointDocument>('TrackingCheckpoint', schema);
}
