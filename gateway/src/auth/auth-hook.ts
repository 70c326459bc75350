import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '@inventory/platform';
import type { IdentityAdapter } from '../adapters/identity.js';
import { unauthenticatedBody } from '../http/envelopes.js';
import { HttpError } from '../http/http-error.js';
import { parseBearer } from './bearer.js';
import { rateGate } from './rate-gate.js';
import type { RateLimiter } from './rate-limiter.js';
import { ruleFor, type RouteRule } from './route-access.js';
import { sessionAuthentication, sessionTokenOf } from './session-auth.js';
import { enterTenant, type TenantResolver } from './tenancy.js';
import type { TokenCache } from './token-cache.js';
import { tokenAuthentication } from './token-auth.js';
import type { ResolvedTenant } from './types.js';

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
 * tenant from Host (tenancy.ts) → credential: bearer token (token-auth.ts), else session cookie
 * (session-auth.ts) → IP allowlist → rate limit (rate-gate.ts) → route access (route-access.ts:
 * deny by default for tokens, scope, user permission). Unmatched routes pass through to the 404
 * handler.
 *
 * Every step returns a promise only when something must be awaited: a tenant, token and lease
 * slot already held here answer without one (ADR 0718).
 */
export function registerAuthHook(app: FastifyInstance, deps: AuthHookDeps): void {
  app.decorateRequest('tenant', null as never);
  app.decorateRequest('auth', null);

  const limit = rateGate(deps.limiter);
  const token = tokenAuthentication({
    tokens: deps.tokens,
    limit,
    platformRateLimit: deps.platformRateLimit,
  });
  const authenticateSession = sessionAuthentication({
    identity: deps.identity,
    limit,
    platformRateLimit: deps.platformRateLimit,
  });

  const admitTenant = (
    request: FastifyRequest,
    reply: FastifyReply,
    rule: RouteRule,
    tenant: ResolvedTenant | null,
  ): Promise<void> | void => {
    enterTenant(request, tenant);
    // Public routes (sign-in, inbound provider webhooks) ignore credentials altogether; some are
    // limited per client address instead.
    if (rule.access === 'public') {
      if (!rule.perAddressPerMinute) return;
      const key = `rl:addr:${request.method} ${request.routeOptions.url}:${request.ip}`;
      return limit(reply, 'address', key, rule.perAddressPerMinute);
    }
    const authorization = request.headers.authorization;
    if (authorization !== undefined) return token.authenticate(request, reply, rule, authorization);
    const sessionToken = sessionTokenOf(request);
    if (sessionToken) return authenticateSession(request, reply, rule, sessionToken);
    throw new HttpError(401, unauthenticatedBody());
  };

  /**
   * A request no route matches is still logged on the valid token it presented (rule 8): the
   * token is identified, not enforced, and the answer stays the 404 whatever the credentials.
   */
  const noteTokenOfUnmatched = (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> | void => {
    const parsed = parseBearer(request.headers.authorization);
    if (!parsed) return;
    return deps.tenants.withTenant(request.hostname, (tenant) =>
      tenant ? token.note(request, reply, tenant, parsed) : undefined,
    );
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
      pending = deps.tenants.withTenant(request.hostname, (tenant) =>
        admitTenant(request, reply, rule, tenant),
      );
    } catch (error) {
      return done(error as Error);
    }
    if (pending) pending.then(() => done(), done);
    else done();
  });
}
