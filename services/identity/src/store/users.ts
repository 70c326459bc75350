import { Schema, type Connection, type Model } from 'mongoose';
import { tenantFilter } from '@inventory/platform';

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

export class UserRepository {
  readonly model: Model<UserDocument>;
  private readonly changeListeners: Array<(tenantId: string, id: number) => void> = [];

  constructor(connection: Connection) {
    this.model = connection.model<UserDocument>('User', schema);
  }

  /** Caches of user reads drop their entry when this replica changes the user. */
  onChange(listener: (tenantId: string, id: number) => void): void {
    this.changeListeners.push(listener);
  }

  private changed(tenantId: string, id: number): void {
    for (const listener of this.changeListeners) listener(tenantId, id);
  }

  findById(tenantId: string, id: number) {
    return this.model.findOne(tenantFilter<UserDocument>(tenantId, { id })).lean<UserDocument>();
  }

  findByEmail(tenantId: string, email: string) {
    return this.model
      .findOne(tenantFilter<UserDocument>(tenantId, { email: email.toLowerCase() }))
      .lean<UserDocument>();
  }

  async update(
    tenantId: string,
    id: number,
    set: Partial<UserDocument>,
    extra: Record<string, unknown> = {},
  ): Promise<boolean> {
    const result = await this.model.updateOne(
      tenantFilter<UserDocument>(tenantId, { id, ...extra }),
      { $set: { ...set, updated_at: new Date() } },
    );
    this.changed(tenantId, id);
    return result.matchedCount > 0;
  }

  /** Takes the user's token lease when it is free or expired; false when someone else holds it. */
  async acquireTokenLease(
    tenantId: string,
    id: number,
    owner: string,
    leaseMs: number,
  ): Promise<boolean> {
    const now = new Date();
    const result = await this.model.updateOne(
      tenantFilter<UserDocument>(tenantId, {
        id,
        $or: [{ token_lock_until: null }, { token_lock_until: { $lt: now } }],
      }),
      {
        $set: { token_lock_owner: owner, token_lock_until: new Date(now.getTime() + leaseMs) },
        $inc: { token_version: 1 },
      },
    );
    return result.modifiedCount > 0;
  }

  async releaseTokenLease(tenantId: string, id: number, owner: string): Promise<void> {
    await this.model.updateOne(
      tenantFilter<UserDocument>(tenantId, { id, token_lock_owner: owner }),
      { $set: { token_lock_owner: null, token_lock_until: null } },
    );
  }
}
