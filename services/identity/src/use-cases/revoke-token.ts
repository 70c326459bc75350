import { notFound } from '@inventory/platform';
import type { UseCaseDeps } from './deps.js';
import { withTokenEvent } from './token-events.js';

/** Revocation is immediate: the gateways drop the token on the event sent before this returns. */
export class RevokeToken {
  constructor(private readonly deps: UseCaseDeps) {}

  /** `userId` undefined: an operator revoking any token of the tenant. */
  async execute(tenantId: string, userId: number | undefined, tokenId: number): Promise<void> {
    const existing = await (userId === undefined
      ? this.deps.store.tokens.model
          .findOne({ tenant_id: tenantId, id: tokenId, revoked_at: null })
          .lean()
      : this.deps.store.tokens.findOwned(tenantId, userId, tokenId));
    if (!existing) throw notFound('Personal access token not found.');
    const revoked = await withTokenEvent(
      this.deps,
      'revoked',
      { tenantId, tokenId, userId: existing.user_id },
      () => this.deps.store.tokens.revoke(tenantId, userId, tokenId),
    );
    if (!revoked) throw notFound('Personal access token not found.');
  }
}
