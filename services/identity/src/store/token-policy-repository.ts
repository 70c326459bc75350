import type { Connection } from 'mongoose';
import { TenantScopedRepository } from '@inventory/platform';
import { OPEN_POLICY, type TokenPolicy } from '../domain/token-policy.js';
import { tokenPolicyModel, type TokenPolicyDocument } from './token-policy.js';

/** One policy per tenant; a tenant without one has the open policy (ADR 0120). */
export class TokenPolicyRepository extends TenantScopedRepository<TokenPolicyDocument> {
  constructor(connection: Connection) {
    super(tokenPolicyModel(connection));
  }

  async get(tenantId: string): Promise<TokenPolicy & { updated_at?: Date; updated_by?: number }> {
    const stored = await this.findOne(tenantId, {});
    if (!stored) return { ...OPEN_POLICY };
    return {
      max_lifetime_days: stored.max_lifetime_days ?? null,
      allow_no_expiry: stored.allow_no_expiry,
      member_scopes: stored.member_scopes ?? null,
      require_ip_allowlist: stored.require_ip_allowlist,
      flag_unused_after_days: stored.flag_unused_after_days ?? null,
      expire_unused: stored.expire_unused ?? false,
      updated_at: stored.updated_at,
      updated_by: stored.updated_by,
    };
  }

  /** The tenants whose policy expires unused tokens, with it (the idle-token pass, ADR 0122). */
  async expiringUnusedAcrossTenants(): Promise<TokenPolicyDocument[]> {
    return this.acrossTenants()
      .find({ expire_unused: true, flag_unused_after_days: { $ne: null } })
      .lean<TokenPolicyDocument[]>()
      .exec();
  }

  async set(tenantId: string, policy: TokenPolicy, userId: number, now: Date): Promise<void> {
    await this.upsertOne(
      tenantId,
      {},
      {
        $set: {
          max_lifetime_days: policy.max_lifetime_days,
          allow_no_expiry: policy.allow_no_expiry,
          member_scopes: policy.member_scopes,
          require_ip_allowlist: policy.require_ip_allowlist,
          flag_unused_after_days: policy.flag_unused_after_days,
          expire_unused: policy.expire_unused,
          updated_at: now,
          updated_by: userId,
        },
      },
    );
  }
}
