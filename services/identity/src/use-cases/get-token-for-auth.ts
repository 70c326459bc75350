import type { AuthToken } from '@inventory/contracts/identity/v1/identity.js';
import { notFound } from '@inventory/platform';
import type { UseCaseDeps } from './deps.js';

/**
 * The token record the gateway checks a bearer secret against (hash only).
 * Unknown, revoked, expired and other tenants' tokens are all the same NOT_FOUND.
 */
export class GetTokenForAuth {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(tenantId: string, tokenId: number): Promise<AuthToken> {
    const token = await this.deps.store.tokens.findForAuth(tenantId, tokenId);
    if (!token) throw notFound('Token not found.');
    const user = await this.deps.store.users.findById(tenantId, token.user_id);
    if (!user) throw notFound('Token not found.');
    return {
      id: token.id,
      tenant_id: token.tenant_id,
      user_id: token.user_id,
      secret_hash: token.secret_hash,
      scopes: token.scopes,
      ip_allowlist: token.ip_allowlist,
      rate_limit_per_minute: token.rate_limit_per_minute ?? 0,
      expires_at: token.expires_at ?? undefined,
      user_is_owner: user.is_owner,
      user_permissions: user.permissions,
    };
  }
}
