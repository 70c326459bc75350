import { parseToken } from '@inventory/access';
import type { IdentityAdapter } from '../adapters/identity.js';
import type { TokenCache } from './token-cache.js';

/**
 * The identity adapter of the routes that change tokens: after each call that revokes or edits
 * tokens, this replica drops them from its own cache. Identity's event reaches every replica too
 * (ADR 0104), but over NATS, so the caller's next request could reach this replica first. They are
 * dropped whatever the answer: a lost answer may hide a change that was made.
 */
export function droppingChangedTokens(
  identity: IdentityAdapter,
  tokens: Pick<TokenCache, 'invalidate'>,
): IdentityAdapter {
  const dropping = async <T>(ids: readonly number[], call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } finally {
      for (const id of ids) tokens.invalidate(id);
    }
  };
  const reportedIds = (reported: readonly string[]) =>
    reported.flatMap((text) => {
      const parsed = parseToken(text);
      return parsed ? [parsed.id] : [];
    });
  return {
    ...identity,
    updateToken: (request) => dropping([request.id], () => identity.updateToken(request)),
    regenerateToken: (request) => dropping([request.id], () => identity.regenerateToken(request)),
    revokeToken: (id) => dropping([id], () => identity.revokeToken(id)),
    revokeTenantToken: (id) => dropping([id], () => identity.revokeTenantToken(id)),
    reportLeakedTokens: (reported, url) =>
      dropping(reportedIds(reported), () => identity.reportLeakedTokens(reported, url)),
  };
}
