import { Schema, type Connection, type Model } from 'mongoose';

export interface UserDocument {
  tenant_id: string;
  id: number;
  email: string;
  name: string;
  password_hash: string;
  is_owner: boolean;
  permissions: string[];
  two_factor_enabled: boolean;
  two_factor_secret: string | null;
  two_factor_pending_secret: string | null;
  two_factor_recovery_hashes: string[];
  /** The last TOTP step accepted, so a code cannot be replayed within its window. */
  two_factor_last_step: number;
  /** Bumped by every token creation (an audit of how many were made). */
  token_version: number;
  /** A short lease serialising this user's token creations across replicas (the 50-token limit). */
  token_lock_owner: string | null;
  token_lock_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<UserDocument>(
  {
    tenant_id: { type: String, required: true },
    id: { type: Number, required: true, unique: true },
    email: { type: String, required: true },
    name: { type: String, required: true },
    password_hash: { type: String, required: true },
    is_owner: { type: Boolean, default: false },
    permissions: { type: [String], default: [] },
    two_factor_enabled: { type: Boolean, default: false },
    two_factor_secret: { type: String, default: null },
    two_factor_pending_secret: { type: String, default: null },
    two_factor_recovery_hashes: { type: [String], default: [] },
    two_factor_last_step: { type: Number, default: 0 },
    token_version: { type: Number, default: 0 },
    token_lock_owner: { type: String, default: null },
    token_lock_until: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'users' },
);
schema.index({ tenant_id: 1, email: 1 }, { unique: true });

/** The `users` collection's one model on a connection (kept private by `UserRepository`). */
export function userModel(connection: Connection): Model<UserDocument> {
  return connection.model<UserDocument>('User', schema);
}
