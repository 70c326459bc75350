import { Schema, type Connection, type Model } from 'mongoose';

/**
 * What the disconnect worker needs after the instance is gone: the key
 * (still encrypted) and the numbers to stop at the provider. Deleted once done.
 */
export interface StopJobDocument {
  job_id: string;
  tenant_id: string;
  integration_instance_id: number;
  /** The instance's current key, for numbers registered under it (or before keys were recorded). */
  api_key_encrypted: string;
  /** Keys retired by rotations: a number registered under one is stopped with it (ADR 0213). */
  retired_keys?: Array<{ key_ref: string; api_key_encrypted: string }>;
  numbers: Array<{ number: string; carrier: number | null; key_ref?: string | null }>;
  attempts: number;
  last_error: string | null;
  created_at: Date;
}

const schema = new Schema<StopJobDocument>(
  {
    job_id: { type: String, required: true },
    tenant_id: { type: String, required: true },
    integration_instance_id: { type: Number, required: true },
    api_key_encrypted: { type: String, required: true },
    retired_keys: {
      type: [{ _id: false, key_ref: String, api_key_encrypted: String }],
      default: [],
    },
    numbers: {
      type: [
        {
          _id: false,
          number: String,
          carrier: { type: Number, default: null },
          key_ref: { type: String, default: null },
        },
      ],
      default: [],
    },
    attempts: { type: Number, default: 0 },
    last_error: { type: String, default: null },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'stop_jobs' },
);
schema.index({ job_id: 1 }, { unique: true });

export function stopJobModel(connection: Connection): Model<StopJobDocument> {
  return connection.model<StopJobDocument>('StopJob', schema);
}
