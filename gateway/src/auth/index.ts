import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Logger, Redis } from '@inventory/platform';
import type { NatsConnection } from 'nats';
import { CurrentUserLoader } from '../adapters/current-user-loader.js';
import type { IdentityAdapter } from '../adapters/identity.js';
import { IdentityUserStreams } from '../adapters/identity-user-streams.js';
import type { GatewayConfig } from '../config.js';
import { registerAuthHook } from './auth-hook.js';
import { LoginThrottle } from './login-throttle.js';
import { RateLimiter } from './rate-limiter.js';
import { registerRequestLog, RequestLogPublisher } from './request-log.js';
import { ROUTE_TABLE } from '../routes/route-table.js';
import type { RouteRule } from './route-access.js';
import { TenantResolver } from './tenancy.js';
import { TokenCache } from './token-cache.js';
import { UserCache } from './user-cache.js';

export type { ResolvedTenant, RequestAuth } from './types.js';

/** Extra routes and their access rules, for tests that need routes of their own (e.g. scoped probes). */
export interface ExtraRoutes {
  plugin: FastifyPluginAsync;
  access: Record<string, RouteRule>;
}

export interface AuthWiring {
  currentUsers: CurrentUserLoader;
  tenants: TenantResolver;
  tokens: TokenCache;
  users: UserCache;
  limiter: RateLimiter;
  throttle: LoginThrottle;
  requestLog: RequestLogPublisher;
  nats: NatsConnection;
  logger: Logger;
  config: GatewayConfig;
  routeTable: Record<string, RouteRule>;
  extraRoutes?: ExtraRoutes;
  close(): void;
}

/** Tenancy, token cache, limiter, throttle, request log: the state behind the auth hook. */
export function createAuthWiring(
  config: GatewayConfig,
  redis: Redis,
  nats: NatsConnection,
  logger: Logger,
  identity: IdentityAdapter,
  extraRoutes?: ExtraRoutes,
): AuthWiring {
  const tokens = new TokenCache(identity, config.TOKEN_CACHE_TTL_MS, logger);
  const userStreams = new IdentityUserStreams(identity, {
    deadlineMs: config.GRPC_DEADLINE_MS,
    // As the unary identity client's breaker: a trial look-up 2 s after it opens.
    breaker: { resetTimeoutMs: 2_000 },
  });
  tokens.listen(nats);
  // The principal (token record and user) is trusted for the same short time (ADR 0109).
  const users = new UserCache(config.TOKEN_CACHE_TTL_MS, logger);
  users.listen(nats);
  return {
    currentUsers: new CurrentUserLoader(userStreams, users),
    tenants: new TenantResolver(identity, {
      publicScheme: config.PUBLIC_SCHEME,
      publicPort: config.PUBLIC_PORT,
      cacheTtlMs: config.TENANT_CACHE_TTL_MS,
      negativeCacheTtlMs: Math.min(config.TENANT_CACHE_TTL_MS, 5_000),
      loopbackTenantHost: config.DEV_LOOPBACK_TENANT
        ? `${config.DEV_LOOPBACK_TENANT}.${config.BASE_DOMAIN}`
        : undefined,
    }),
    tokens,
    users,
    limiter: new RateLimiter(redis, logger, {
      failOpenMs: config.RATE_LIMIT_FAIL_OPEN_MS,
      leases: { maxSlots: config.RATE_LIMIT_LEASE_MAX_SLOTS },
    }),
    requestLog: new RequestLogPublisher(nats, logger),
    throttle: new LoginThrottle(
      redis,
      {
        maxPerAccount: config.LOGIN_MAX_ATTEMPTS_PER_ACCOUNT,
        maxPerIp: config.LOGIN_MAX_ATTEMPTS_PER_IP,
        windowSeconds: config.LOGIN_THROTTLE_WINDOW_SECONDS,
        failOpenMs: config.RATE_LIMIT_FAIL_OPEN_MS,
      },
      logger,
    ),
    nats,
    logger,
    config,
    routeTable: { ...ROUTE_TABLE, ...extraRoutes?.access },
    extraRoutes,
    close() {
      tokens.stop();
      users.stop();
      userStreams.close();
    },
  };
}

/**
 * Tenancy, authentication, the route table's enforcement, rate limits and the
 * request log, as hooks. Call after the OpenAPI registration and before any
 * route, so every route is guarded (app.ts).
 */
export async function registerAuth(
  app: FastifyInstance,
  wiring: AuthWiring,
  identity: IdentityAdapter,
): Promise<void> {
  registerAuthHook(app, {
    identity,
    tenants: wiring.tenants,
    tokens: wiring.tokens,
    limiter: wiring.limiter,
    routeTable: wiring.routeTable,
    platformRateLimit: wiring.config.RATE_LIMIT_PER_MINUTE,
    logger: wiring.logger,
  });
  registerRequestLog(app, wiring.requestLog);
}
