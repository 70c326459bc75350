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
  /** Bumped by every token creation; the optimistic lock behind the 50-token limit. */
  token_version: number;
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
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'users' },
);
schema.index({ tenant_id: 1, email: 1 }, { unique: true });

export class UserRepository {
  readonly model: Model<UserDocument>;

  constructor(connection: Connection) {
    this.model = connection.model<UserDocument>('User', schema);
  }

  findById(tenantId: string, id: number) {
    return this.model.findOne(tenantFilter<UserDocument>(tenantId, { id })).lean<UserDocument>();
  }

  findByEmail(tenantId: string, email: string) {
    return this.model.findOne(tenantFilter<UserDocument>(tenantId, { email: email.toLowerCase() })).lean<UserDocument>();
  }

  async update(tenantId: string, id: number, set: Partial<UserDocument>, extra: Record<string, unknown> = {}): Promise<boolean> {
    const result = await this.model.updateOne(tenantFilter<UserDocument>(tenantId, { id, ...extra }), { $set: { ...set, updated_at: new Date() } });
    return result.matchedCount > 0;
  }

  /** Compare-and-set on token_version; false when another creation won the race. */
  async bumpTokenVersion(tenantId: string, id: number, expected: number): Promise<boolean> {
    const result = await this.model.updateOne(tenantFilter<UserDocument>(tenantId, { id, token_version: expected }), { $inc: { token_version: 1 } });
    return result.modifiedCount > 0;
  }
}
