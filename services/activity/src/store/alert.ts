import { Schema, type Connection, type Model } from 'mongoose';
import type { ValidAlert } from '../domain/alert.js';

/**
 * A stored alert: the checked alert as `validateAlert` answers it (its `key`, the producer's dedupe
 * key, is unique per tenant, so a key raised twice is one alert), with its id and times.
 */
export interface AlertDocument extends ValidAlert {
  id: number;
  tenant_id: string;
  read_at: Date | null;
  created_at: Date;
  /** When this service stored it: what retention counts from (see ActivityDocument). */
  stored_at?: Date;
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
    recipient_user_id: { type: Number, default: null },
    read_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    stored_at: { type: Date },
  },
  // `minimize: false` keeps an empty properties object instead of dropping the field.
  { versionKey: false, collection: 'alerts', minimize: false },
);

schema.index({ tenant_id: 1, key: 1 }, { unique: true });
// Led by the shard key (deploy/SCALING.md), as a sharded collection's unique index must be; the
// id itself is unique because the counter hands each one out once (ADR 0237).
schema.index({ tenant_id: 1, key: 1, id: 1 }, { unique: true });
// Marking one alert read finds it by id. Descending: the ascending pattern is the retired unique
// index's, and its name is dropped at every start.
schema.index({ tenant_id: 1, id: -1 });
// The bell: newest first, all or unread only, and the unread count, of one reader's audience
// (their own alerts and, with alerts:view, the inbox's: `recipient_user_id` null).
schema.index({ tenant_id: 1, recipient_user_id: 1, created_at: -1, id: -1 });
schema.index({ tenant_id: 1, recipient_user_id: 1, read_at: 1, created_at: -1, id: -1 });

/**
 * Indexes the schema no longer declares, dropped at start: the bell's before alerts had
 * recipients (ADR 0303), and the id's unique one (ADR 0237).
 */
export const RETIRED_ALERT_INDEXES = [
  'tenant_id_1_created_at_-1_id_-1',
  'tenant_id_1_read_at_1_created_at_-1_id_-1',
  // ADR 0237: a unique index of a sharded collection starts with its shard key.
  'tenant_id_1_id_1',
];

export type NewAlert = Omit<AlertDocument, 'id' | 'tenant_id' | 'read_at' | 'stored_at'>;

/**
 * The `alerts` collection's model on a connection (kept private by `AlertRepository`); a second
 * repository on the same connection reuses it (mongoose refuses a redefinition).
 */
export function alertModel(connection: Connection): Model<AlertDocument> {
  return (
    (connection.models.Alert as Model<AlertDocument> | undefined) ??
    connection.model<AlertDocument>('Alert', schema)
  );
}
