import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOKEN_EXPIRATION_HEADER } from '@inventory/access';
import { currentContext, enterContext, type Logger } from '@inventory/platform';
import { timingSafeEqual } from 'node:crypto';
import { parseCookie } from 'cookie';
import type { IdentityAdapter } from '../adapters/identity.js';
import {
  forbiddenBody,
  invalidTokenBody,
  notFoundBody,
  tooManyRequestsBody,
  unauthenticatedBody,
} from '../http/envelopes.js';
import { HttpError } from '../http/http-error.js';
import { parseBearer, secretMatches, sha256Hex } from './bearer.js';
import { assertPermission, assertTokenScope } from './grants.js';
import { ipAllowed } from './ip-allowlist.js';
import { applyRateHeaders, type RatePolicyName } from './rate-limit-headers.js';
import { RateLimiterUnavailable, type RateLimiter, type RateLimitResult } from './rate-limiter.js';
import { requiredScope, ruleFor, type RouteRule } from './route-access.js';
import type { TenantResolver } from './tenancy.js';
import type { CachedToken, TokenCache } from './token-cache.js';
import type { AuthenticatedUser, ResolvedTenant } from './types.js';

export const SESSION_COOKIE = 'inventory_session';
export const NOT_FOR_TOKENS = 'This endpoint is not available to API tokens.';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The web session's token from the Cookie header. Parsed here, for the one request in which a
 * session is looked for, rather than by a cookie plugin's hook on every request (ADR 0719).
 */
function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? parseCookie(header)[SESSION_COOKIE] : undefined;
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

/** Marks the request as the token's (its user acts), for the handlers and the request log. */
function presentedBy(request: FastifyRequest, record: CachedToken['record']): AuthenticatedUser {
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
  return user;
}

export interface AuthHookDeps {
  identity: IdentityAdapter;
  tenants: TenantResolver;
  tokens: TokenCache;
  limiter: RateLimiter;
  routeTable: Record<string, RouteRule>;
  platformRateLimit: number;
  logger: Logger;
}

/**
 * The one gate every request passes, driven by the route table:
 * tenant from Host → credential (bearer token, else session cookie) → IP
 * allowlist → rate limit → route access (deny by default for tokens) → scope →
 * user permission. Unmatched routes pass through to the 404 handler.
 */
export function registerAuthHook(app: FastifyInstance, deps: AuthHookDeps): void {
  app.decorateRequest('tenant', null as never);
  app.decorateRequest('auth', null);

  /** Rate-limit headers, and the 429 when the key's budget is spent. */
  const admitWithin = (
    reply: FastifyReply,
    policy: RatePolicyName,
    result: RateLimitResult | undefined,
  ) => {
    if (!result) return;
    applyRateHeaders(reply, policy, result);
    if (!result.allowed) {
      throw new HttpError(429, tooManyRequestsBody(result.retryAfterSeconds), {
        'retry-after': String(result.retryAfterSeconds),
      });
    }
  };

  /** A slot of the replica's lease without a promise; else the shared budget in Redis. */
  const limit = (
    reply: FastifyReply,
    policy: RatePolicyName,
    key: string,
    max: number,
  ): Promise<void> | void => {
    const leased = deps.limiter.takeLeased(key, max);
    if (leased) return admitWithin(reply, policy, leased);
    return deps.limiter.takeShared(key, max).then(
      (result) => admitWithin(reply, policy, result),
      (error: unknown) => {
        if (error instanceof RateLimiterUnavailable)
          throw new HttpError(
            503,
            {
              message: 'The service is temporarily unavailable. Try again shortly.',
              code: 'rate_limiter_unavailable',
            },
            { 'retry-after': '5' },
          );
        throw error;
      },
    );
  };

  // The token path returns a promise only when something must be awaited: a token, tenant or
  // lease already held here answers without one (ADR 0718).
  const authenticateToken = (
    request: FastifyRequest,
    reply: FastifyReply,
    rule: RouteRule,
    header: string,
  ): Promise<void> | void => {
    const parsed = parseBearer(header);
    if (!parsed) throw new HttpError(401, unauthenticatedBody());
    const cached = deps.tokens.cached(request.tenant.id, parsed.tokenId);
    if (cached) return admitToken(request, reply, rule, parsed.secret, cached);
    return deps.tokens
      .get(request.tenant.id, parsed.tokenId)
      .then((found) => admitToken(request, reply, rule, parsed.secret, found));
  };

  const admitToken = (
    request: FastifyRequest,
    reply: FastifyReply,
    rule: RouteRule,
    secret: string,
    cached: CachedToken | undefined,
  ): Promise<void> | void => {
    // Unknown, revoked, expired, another tenant's, or a wrong secret: one indistinguishable answer.
    if (!isValidToken(cached, secret)) throw new HttpError(401, invalidTokenBody());
    const record = cached.record;
    const user = presentedBy(request, record);
    // Before any refusal below, so every answer to this token tells its client when it dies.
    if (cached.expiration) void reply.header(TOKEN_EXPIRATION_HEADER, cached.expiration);
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
    const limited = limit(reply, 'token', key, max);
    if (limited) return limited.then(() => checkTokenAccess(request, rule, record.scopes, user));
    return checkTokenAccess(request, rule, record.scopes, user);
  };

  /**
   * A request no route matches is still logged on the valid token it presented (rule 8): the
   * token is identified, not enforced, and the answer stays the 404 whatever the credentials.
   */
  const noteTokenOfUnmatched = (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> | void => {
    const header = request.headers.authorization;
    const parsed = header === undefined ? null : parseBearer(header);
    if (!parsed) return;
    const note = (tenant: ResolvedTenant | null, cached: CachedToken | undefined) => {
      if (!tenant || !isValidToken(cached, parsed.secret)) return;
      request.tenant = tenant;
      presentedBy(request, cached.record);
      if (cached.expiration) void reply.header(TOKEN_EXPIRATION_HEADER, cached.expiration);
    };
    const withTenant = (tenant: ResolvedTenant | null): Promise<void> | void => {
      if (!tenant) return;
      const cached = deps.tokens.cached(tenant.id, parsed.tokenId);
      if (cached) return note(tenant, cached);
      return deps.tokens.get(tenant.id, parsed.tokenId).then((found) => note(tenant, found));
    };
    const tenant = deps.tenants.cached(request.hostname);
    if (tenant) return withTenant(tenant);
    return deps.tenants.resolve(request.hostname).then(withTenant);
  };

  const checkTokenAccess = (
    request: FastifyRequest,
    rule: RouteRule,
    scopes: readonly string[],
    user: AuthenticatedUser,
  ): void => {
    if (rule.access === 'session') throw new HttpError(403, forbiddenBody(NOT_FOR_TOKENS));
    const scope = requiredScope(rule.access, request.method);
    if (scope) assertTokenScope(scopes, scope);
    const permission = rule.permission ?? scope;
    if (permission) assertPermission(user, permission);
  };

  const authenticateSession = async (
    request: FastifyRequest,
    reply: FastifyReply,
    rule: RouteRule,
    sessionToken: string,
  ) => {
    let session;
    try {
      session = await deps.identity.getSession(sessionToken);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 401)
        throw new HttpError(401, unauthenticatedBody());
      throw error;
    }
    const user: AuthenticatedUser = {
      id: session.user!.id,
      isOwner: session.user!.is_owner,
      permissions: session.user!.permissions,
    };
    request.auth = { kind: 'session', sessionToken, user };
    const context = currentContext();
    if (context) context.userId = String(user.id);
    if (WRITE_METHODS.has(request.method)) {
      const presented = request.headers['x-csrf-token'];
      const expected = Buffer.from(session.csrf_hash, 'hex');
      const actual =
        typeof presented === 'string' && presented.length <= 200
          ? Buffer.from(sha256Hex(presented), 'hex')
          : Buffer.alloc(0);
      const ok =
        actual.length === expected.length &&
        expected.length > 0 &&
        timingSafeEqual(actual, expected);
      if (!ok) throw new HttpError(403, forbiddenBody('CSRF token mismatch.'));
    }
    await limit(
      reply,
      'session',
      `rl:user:${request.tenant.id}:${user.id}`,
      deps.platformRateLimit,
    );
    const permission =
      rule.permission ??
      (typeof rule.access === 'object' ? requiredScope(rule.access, request.method) : undefined);
    if (permission) assertPermission(user, permission);
  };

  const authenticate = (
    request: FastifyRequest,
    reply: FastifyReply,
    rule: RouteRule,
  ): Promise<void> | void => {
    const tenant = deps.tenants.cached(request.hostname);
    if (tenant) return admitTenant(request, reply, rule, tenant);
    return deps.tenants
      .resolve(request.hostname)
      .then((resolved) => admitTenant(request, reply, rule, resolved));
  };

  const admitTenant = (
    request: FastifyRequest,
    reply: FastifyReply,
    rule: RouteRule,
    tenant: ResolvedTenant | null,
  ): Promise<void> | void => {
    if (!tenant)
      throw new HttpError(
        404,
        notFoundBody(`No tenant answers on ${request.hostname.slice(0, 253)}.`),
      );
    request.tenant = tenant;
    const context = currentContext() ?? enterContext({ requestId: request.id });
    context.tenantId = tenant.id;

    // Public routes (sign-in, inbound provider webhooks) ignore credentials altogether; some are
    // limited per client address instead.
    if (rule.access === 'public') {
      if (!rule.perAddressPerMinute) return;
      const key = `rl:addr:${request.method} ${request.routeOptions.url}:${request.ip}`;
      return limit(reply, 'address', key, rule.perAddressPerMinute);
    }
    const authorization = request.headers.authorization;
    if (authorization !== undefined) return authenticateToken(request, reply, rule, authorization);
    const sessionToken = sessionTokenOf(request);
    if (sessionToken) return authenticateSession(request, reply, rule, sessionToken);
    throw new HttpError(401, unauthenticatedBody());
  };

  // Callback style, so the routes that need nothing (no match, tenantless probes) pass without a
  // promise, and a request whose tenant, token and rate-limit slot are held here passes without
  // one either; with the request context's AsyncLocalStorage every promise also runs Node's
  // promise hooks.
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.routeOptions.url;
    // No route matched: the 404 envelope, whatever the credentials (a valid token is noted for
    // its request log; a failure to identify it only leaves the 404 unlogged).
    if (!url || request.is404) {
      let noted: Promise<void> | void;
      try {
        noted = noteTokenOfUnmatched(request, reply);
      } catch {
        return done();
      }
      if (noted)
        noted.then(
          () => done(),
          () => done(),
        );
      else done();
      return;
    }
    // Deny by default: a route missing from the table is for web sessions only.
    const rule = ruleFor(request.method, url, deps.routeTable) ?? { access: 'session' };
    if (rule.tenantless) return done();
    let pending: Promise<void> | void;
    try {
      pending = authenticate(request, reply, rule);
    } catch (error) {
      return done(error as Error);
    }
    if (pending) pending.then(() => done(), done);
    else done();
  });
}
