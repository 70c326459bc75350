import { Schema, type Connection, type Model } from 'mongoose';

export interface SessionDocument {
  tenant_id: string;
  /** SHA-256 of the cookie value; the value itself is never stored. */
  id_hash: string;
  user_id: number;
  csrf_hash: string;
  expires_at: Date;
  created_at: Date;
}

const schema = new Schema<SessionDocument>(
  {
    tenant_id: { type: String, required: true },
    id_hash: { type: String, required: true, unique: true },
    user_id: { type: Number, required: true, index: true },
    csrf_hash: { type: String, required: true },
    expires_at: { type: Date, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'sessions' },
);
// Expired sessions are refused on read and swept by the TTL monitor.
schema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

/** The `sessions` collection's one model on a connection (kept private by `SessionRepository`). */
export function sessionModel(connection: Connection): Model<SessionDocument> {
  return connection.model<SessionDocument>('Session', schema);
}
