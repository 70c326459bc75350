import { Schema, type Connection, type Model } from 'mongoose';
import type { TokenPolicy } from '../domain/token-policy.js';

export interface TokenPolicyDocument extends TokenPolicy {
  tenant_id: string;
  updated_at: Date;
  updated_by: number;
}

const schema = new Schema<TokenPolicyDocument>(
  {
    tenant_id: { type: String, required: true, unique: true },
    max_lifetime_days: { type: Number, default: null },
    allow_no_expiry: { type: Boolean, required: true },
    member_scopes: { type: [String], default: null },
    require_ip_allowlist: { type: Boolean, required: true },
    flag_unused_after_days: { type: Number, default: null },
    expire_unused: { type: Boolean, default: false },
    updated_at: { type: Date, required: true },
    updated_by: { type: Number, required: true },
  },
  { versionKey: false, collection: 'token_policies' },
);

/** The `token_policies` collection's one model (kept private by `TokenPolicyRepository`). */
export function tokenPolicyModel(connection: Connection): Model<TokenPolicyDocument> {
  return connection.model<TokenPolicyDocument>('TokenPolicy', schema);
}
