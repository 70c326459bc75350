import { notFound } from '@inventory/platform';
import type { TokenEvents } from '../events/token-events.js';
import type { TokenRepository } from '../store/token-repository.js';

/**
 * Revocation is immediate: the gateways drop the token on the event sent before
 * this returns (through the API and the admin CLI alike).
 */
export class RevokeToken {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly events: TokenEvents,
  ) {}

  /** `userId` undefined: an operator revoking any token of the tenant. */
  async execute(tenantId: string, userId: number | undefined, tokenId: number): Promise<void> {
    const existing = await (userId === undefined
      ? this.tokens.findUnrevoked(tenantId, tokenId)
      : this.tokens.findOwned(tenantId, userId, tokenId));
    if (!existing) throw notFound('Personal access token not found.');
    const revoked = await this.events.revoked({ tenantId, tokenId, userId: existing.user_id }, () =>
      this.tokens.revoke(tenantId, userId, tokenId),
    );
    if (!revoked) throw notFound('Personal access token not found.');
  }
}
