import { Schema, type Connection, type Model } from 'mongoose';

export interface AlertDocument {
  id: number;
  tenant_id: string;
  /** The producer's dedupe key: unique per tenant, so a key raised twice is one alert. */
  key: string;
  kind: string;
  priority: string;
  title: string;
  message: string;
  link: string | null;
  properties: Record<string, unknown>;
  read_at: Date | null;
  created_at: Date;
}

const schema = new Schema<AlertDocument>(
  {
    id: { type: Number, required: true },
    tenant_id: { type: String, required: true },
    key: { type: String, required: true },
    kind: { type: String, required: true },
    priority: { type: String, required: true },
    title: { type: String, required: true },
    message: { type: String, default: '' },
    link: { type: String, default: null },
    properties: { type: Schema.Types.Mixed, default: () => ({}) },
    read_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
  },
  // `minimize: false` keeps an empty properties object instead of dropping the field.
  { versionKey: false, collection: 'alerts', minimize: false },
);

schema.index({ tenant_id: 1, id: 1 }, { unique: true });
schema.index({ tenant_id: 1, key: 1 }, { unique: true });
// The bell: newest first, all or unread only, and the unread count.
schema.index({ tenant_id: 1, created_at: -1, id: -1 });
schema.index({ tenant_id: 1, read_at: 1, created_at: -1, id: -1 });

export type AlertModel = Model<AlertDocument>;

export function alertModel(connection: Connection): AlertModel {
  return (
    (connection.models.Alert as AlertModel | undefined) ??
    connection.model<AlertDocument>('Alert', schema)
  );
}
