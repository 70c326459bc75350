import { Schema, type Connection } from 'mongoose';
import { nextSequence, TenantScopedRepository } from '@inventory/platform';

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

export class UserRepository extends TenantScopedRepository<UserDocument> {
  constructor(private readonly connection: Connection) {
    super(connection.model<UserDocument>('User', schema));
  }

  nextId(): Promise<number> {
    return nextSequence(this.connection, 'users');
  }

  /** Throws the duplicate-key error when the email is taken in the tenant. */
  async create(user: UserDocument): Promise<void> {
    await this.insertOne(user);
  }

  findById(tenantId: string, id: number): Promise<UserDocument | null> {
    return this.findOne(tenantId, { id });
  }

  findByEmail(tenantId: string, email: string): Promise<UserDocument | null> {
    return this.findOne(tenantId, { email: email.toLowerCase() });
  }

  /** The tenant's users by id: for operators (`npm run admin -- list-users`). */
  list(tenantId: string): Promise<UserDocument[]> {
    return this.findMany(tenantId, {}, { sort: { id: 1 } });
  }

  async update(tenantId: string, id: number, set: Partial<UserDocument>): Promise<boolean> {
    const { matched } = await this.updateOne(
      tenantId,
      { id },
      { $set: { ...set, updated_at: new Date() } },
    );
    return matched > 0;
  }

  /**
   * Records a used TOTP step, only if the last step is still `previousStep`: of two
   * concurrent uses of one code, one wins. `set` rides along (a secret sealed anew).
   */
  async recordTotpStep(
    tenantId: string,
    id: number,
    step: number,
    previousStep: number,
    set: Partial<UserDocument> = {},
  ): Promise<boolean> {
    const { matched } = await this.updateOne(
      tenantId,
      { id, two_factor_last_step: previousStep },
      { $set: { ...set, two_factor_last_step: step, updated_at: new Date() } },
    );
    return matched > 0;
  }

  /** Spends a recovery code (by its hash); false when it was not there (unknown, or used). */
  async useRecoveryCode(tenantId: string, id: number, hash: string): Promise<boolean> {
    const { modified } = await this.updateOne(
      tenantId,
      { id, two_factor_recovery_hashes: hash },
      { $pull: { two_factor_recovery_hashes: hash } },
    );
    return modified > 0;
  }

  /** Takes the user's token lease when it is free or expired; false when someone else holds it. */
  async acquireTokenLease(
    tenantId: string,
    id: number,
    owner: string,
    leaseMs: number,
  ): Promise<boolean> {
    const now = new Date();
    const { modified } = await this.updateOne(
      tenantId,
      { id, $or: [{ token_lock_until: null }, { token_lock_until: { $lt: now } }] },
      {
        $set: { token_lock_owner: owner, token_lock_until: new Date(now.getTime() + leaseMs) },
        $inc: { token_version: 1 },
      },
    );
    return modified > 0;
  }

  async releaseTokenLease(tenantId: string, id: number, owner: string): Promise<void> {
    await this.updateOne(
      tenantId,
      { id, token_lock_owner: owner },
      { $set: { token_lock_owner: null, token_lock_until: null } },
    );
  }
}
