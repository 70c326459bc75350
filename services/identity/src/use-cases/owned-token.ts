import { notFound } from '@inventory/platform';
import type { TokenDocument } from '../store/token.js';
import type { TokenRepository } from '../store/token-repository.js';

/** The acting user's unrevoked token, or NOT_FOUND (another user's or tenant's looks the same). */
export async function ownedToken(
  tokens: TokenRepository,
  tenantId: string,
  userId: number,
  tokenId: number,
): Promise<TokenDocument> {
  const token = await tokens.findOwned(tenantId, userId, tokenId);
  if (!token) throw notFound('Personal access token not found.');
  return token;
}
