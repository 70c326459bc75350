import { Schema, type Connection, type Model } from 'mongoose';

export interface TokenDocument {
  tenant_id: string;
  id: number;
  user_id: number;
  name: string;
  /** Hex SHA-256 of the secret part; the secret itself is never stored. */
  secret_hash: string;
  scopes: string[];
  ip_allowlist: string[];
  rate_limit_per_minute: number | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /**
   * The expiry alerts already raised, `<stage>@<expires_at ms>` (ADR 0118): a stage is raised once
   * per expiry, whichever replica claims it first. Absent on tokens that never had one.
   */
  expiry_alerts?: string[];
  /** The warning that this token will be expired as unused (ADR 0122), for its idle period. */
  idle_warning?: { since: Date; at: Date } | null;
}

const schema = new Schema<TokenDocument>(
  {
    tenant_id: { type: String, required: true },
    id: { type: Number, required: true, unique: true },
    user_id: { type: Number, required: true },
    name: { type: String, required: true },
    secret_hash: { type: String, required: true, unique: true },
    scopes: { type: [String], default: [] },
    ip_allowlist: { type: [String], default: [] },
    rate_limit_per_minute: { type: Number, default: null },
    expires_at: { type: Date, default: null },
    revoked_at: { type: Date, default: null },
    last_used_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    expiry_alerts: { type: [String], default: undefined },
    idle_warning: { type: { since: Date, at: Date, _id: false }, default: undefined },
  },
  { versionKey: false, collection: 'personal_access_tokens' },
);
schema.index({ tenant_id: 1, user_id: 1, revoked_at: 1 });
// The expiry scan reads unrevoked tokens by expiry, across tenants.
schema.index({ revoked_at: 1, expires_at: 1 });

/** The `personal_access_tokens` collection's one model (kept private by `TokenRepository`). */
export function tokenModel(connection: Connection): Model<TokenDocument> {
  return connection.model<TokenDocument>('PersonalAccessToken', schema);
}
