import { notFound } from '@inventory/platform';
import type { TokenDocument } from '../store/token.js';
import type { TokenRepository } from '../store/token-repository.js';
import type { UserDocument } from '../store/user.js';
import type { UserRepository } from '../store/user-repository.js';

/**
 * The token record the gateway checks a bearer secret against (hash only), with
 * its user's permissions. Unknown, revoked, expired and other tenants' tokens are
 * all the same NOT_FOUND.
 */
export class GetTokenForAuth {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly users: UserRepository,
  ) {}

  async execute(
    tenantId: string,
    tokenId: number,
  ): Promise<{ token: TokenDocument; user: UserDocument }> {
    const token = await this.tokens.findForAuth(tenantId, tokenId);
    if (!token) throw notFound('Token not found.');
    const user = await this.users.findById(tenantId, token.user_id);
    if (!user) throw notFound('Token not found.');
    return { token, user };
  }
}
