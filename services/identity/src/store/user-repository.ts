import type { Connection } from 'mongoose';
import { nextSequence, TenantScopedRepository } from '@inventory/platform';
import { userModel, type UserDocument } from './user.js';

export class UserRepository extends TenantScopedRepository<UserDocument> {
  constructor(private readonly connection: Connection) {
    super(userModel(connection));
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

  /** One page of the tenant's members by id, with only who they are (no secrets read). */
  members(
    tenantId: string,
    page: number,
    perPage: number,
  ): Promise<{ rows: Array<Pick<UserDocument, 'id' | 'name' | 'email'>>; total: number }> {
    return this.page(
      tenantId,
      {},
      {
        sort: { id: 1 },
        page,
        perPage,
        projection: { id: 1, name: 1, email: 1 },
      },
    );
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
