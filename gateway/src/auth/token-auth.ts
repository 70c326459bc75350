import type { FastifyReply, FastifyRequest } from 'fastify';
import { TOKEN_EXPIRATION_HEADER } from '@inventory/access';
import { currentContext } from '@inventory/platform';
import { forbiddenBody, invalidTokenBody, unauthenticatedBody } from '../http/envelopes.js';
import { HttpError } from '../http/http-error.js';
import { parseBearer, secretMatches } from './bearer.js';
import { ipAllowed } from './ip-allowlist.js';
import type { RateGate } from './rate-gate.js';
import { assertTokenAccess, type RouteRule } from './route-access.js';
import type { CachedToken, TokenCache } from './token-cache.js';
import type { AuthenticatedUser, ResolvedTenant } from './types.js';

export interface TokenAuthDeps {
  tokens: TokenCache;
  limit: RateGate;
  /** The most any token may make per minute; a token's own limit only lowers it. */
  platformRateLimit: number;
}

export interface TokenAuthentication {
  /**
   * `Authorization: Bearer <id>|<secret>` on a tenant's route: the token, its IP allowlist, its
   * rate limit, then the route's access.
   */
  authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
    rule: RouteRule,
    header: string,
  ): Promise<void> | void;
  /** Marks the request as a valid token's, enforcing nothing (for the request log). */
  note(
    request: FastifyRequest,
    reply: FastifyReply,
    tenant: ResolvedTenant,
    bearer: { tokenId: number; secret: string },
  ): Promise<void> | void;
}

/** Known to identity for this tenant, not expired, and the secret matches. */
function isValidToken(cached: CachedToken | undefined, secret: string): cached is CachedToken {
  const record = cached?.record;
  return (
    !!record &&
    secretMatches(secret, record.secret_hash) &&
    !(record.expires_at && record.expires_at.getTime() <= Date.now())
  );
}

/**
 * Marks the request as the token's (its user acts), for the handlers and the request log, and
 * tells the client when the token dies.
 */
function presentedBy(
  request: FastifyRequest,
  reply: FastifyReply,
  cached: CachedToken,
): AuthenticatedUser {
  const record = cached.record;
  const user: AuthenticatedUser = {
    id: record.user_id,
    isOwner: record.user_is_owner,
    permissions: record.user_permissions,
  };
  request.auth = { kind: 'token', tokenId: record.id, user, scopes: record.scopes };
  const context = currentContext();
  if (context) {
    context.userId = String(record.user_id);
    context.tokenId = String(record.id);
  }
  if (cached.expiration) void reply.header(TOKEN_EXPIRATION_HEADER, cached.expiration);
  return user;
}

/** The token's record, without a promise when this replica holds it (ADR 0718). */
function withToken(
  tokens: TokenCache,
  tenantId: string,
  tokenId: number,
  next: (cached: CachedToken | undefined) => Promise<void> | void,
): Promise<void> | void {
  const cached = tokens.cached(tenantId, tokenId);
  if (cached) return next(cached);
  return tokens.get(tenantId, tokenId).then(next);
}

export function tokenAuthentication(deps: TokenAuthDeps): TokenAuthentication {
  const admit = (
    request: FastifyRequest,
    reply: FastifyReply,
    rule: RouteRule,
    secret: string,
    cached: CachedToken | undefined,
  ): Promise<void> | void => {
    // Unknown, revoked, expired, another tenant's, or a wrong secret: one indistinguishable answer.
    if (!isValidToken(cached, secret)) throw new HttpError(401, invalidTokenBody());
    const record = cached.record;
    // Before any refusal below, so every answer to this token tells its client when it dies.
    const user = presentedBy(request, reply, cached);
    // After `request.auth` is set, so the refusal is in the token's request log (rule 8).
    if (cached.allowlist && !ipAllowed(cached.allowlist, request.ip)) {
      throw new HttpError(
        403,
        forbiddenBody(`This token is not permitted from your IP address (${request.ip}).`),
      );
    }
    const key = `rl:token:${record.id}`;
    const max = Math.min(
      deps.platformRateLimit,
      record.rate_limit_per_minute || deps.platformRateLimit,
    );
    const checkAccess = () => assertTokenAccess(rule, request.method, record.scopes, user);
    const limited = deps.limit(reply, 'token', key, max);
    if (limited) return limited.then(checkAccess);
    return checkAccess();
  };

  return {
    authenticate(request, reply, rule, header) {
      const parsed = parseBearer(header);
      if (!parsed) throw new HttpError(401, unauthenticatedBody());
      return withToken(deps.tokens, request.tenant.id, parsed.tokenId, (cached) =>
        admit(request, reply, rule, parsed.secret, cached),
      );
    },
    note(request, reply, tenant, bearer) {
      return withToken(deps.tokens, tenant.id, bearer.tokenId, (cached) => {
        if (!isValidToken(cached, bearer.secret)) return;
        request.tenant = tenant;
        presentedBy(request, reply, cached);
      });
    },
  };
}
