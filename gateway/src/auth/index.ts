import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { Logger, Redis } from '@inventory/platform';
import type { NatsConnection } from 'nats';
import { CurrentUserLoader } from '../adapters/current-user-loader.js';
import { createIdentityAdapter, type IdentityAdapter } from '../adapters/identity.js';
import { IdentityUserStreams } from '../adapters/identity-user-streams.js';
import type { GatewayConfig } from '../config.js';
import { registerOpenApi } from '../openapi/index.js';
import { sessionRoutes } from '../routes/identity/session.js';
import { tokenRoutes } from '../routes/identity/tokens.js';
import { userRoutes } from '../routes/identity/user.js';
import { registerAuthHook } from './auth-hook.js';
import { LoginThrottle } from './login-throttle.js';
import { RateLimiter } from './rate-limiter.js';
import { registerRequestLog, RequestLogPublisher } from './request-log.js';
import { ROUTE_TABLE, type RouteRule } from './route-access.js';
import { TenantResolver } from './tenancy.js';
import { TokenCache } from './token-cache.js';

export type { ResolvedTenant, RequestAuth } from './types.js';

/** Extra routes and their access rules, for tests that need routes of their own (e.g. scoped probes). */
export interface ExtraRoutes {
  plugin: FastifyPluginAsync;
  access: Record<string, RouteRule>;
}

export interface AuthWiring {
  identity: IdentityAdapter;
  currentUsers: CurrentUserLoader;
  tenants: TenantResolver;
  tokens: TokenCache;
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

export function createAuthWiring(
  config: GatewayConfig,
  redis: Redis,
  nats: NatsConnection,
  logger: Logger,
  extraRoutes?: ExtraRoutes,
): AuthWiring {
  const identity = createIdentityAdapter(config.IDENTITY_GRPC_ADDRESS, config.GRPC_DEADLINE_MS);
  const tokens = new TokenCache(identity, config.TOKEN_CACHE_TTL_MS, logger);
  const userStreams = new IdentityUserStreams(identity, {
    deadlineMs: config.GRPC_DEADLINE_MS,
    // As the unary identity client's breaker: a trial look-up 2 s after it opens.
    breaker: { resetTimeoutMs: 2_000 },
  });
  tokens.listen(nats);
  return {
    identity,
    currentUsers: new CurrentUserLoader(userStreams),
    tenants: new TenantResolver(identity, {
      publicScheme: config.PUBLIC_SCHEME,
      publicPort: config.PUBLIC_PORT,
      cacheTtlMs: config.TENANT_CACHE_TTL_MS,
      negativeCacheTtlMs: Math.min(config.TENANT_CACHE_TTL_MS, 5_000),
    }),
    tokens,
    limiter: new RateLimiter(redis, logger, config.RATE_LIMIT_FAIL_OPEN_MS),
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
      userStreams.close();
      identity.close();
    },
  };
}

/**
 * Tenancy, authentication, the route table's enforcement, rate limits, the
 * request log, the OpenAPI document and identity's own routes. Call before any
 * other route is registered, so every route is documented and guarded.
 */
export async function registerIdentity(app: FastifyInstance, wiring: AuthWiring): Promise<void> {
  await app.register(fastifyCookie);
  await registerOpenApi(app, wiring.routeTable);
  registerAuthHook(app, {
    identity: wiring.identity,
    tenants: wiring.tenants,
    tokens: wiring.tokens,
    limiter: wiring.limiter,
    routeTable: wiring.routeTable,
    platformRateLimit: wiring.config.RATE_LIMIT_PER_MINUTE,
    logger: wiring.logger,
  });
  registerRequestLog(app, wiring.requestLog);
  const routeDeps = {
    identity: wiring.identity,
    currentUsers: wiring.currentUsers,
    throttle: wiring.throttle,
    sessionCookieSecure: wiring.config.SESSION_COOKIE_SECURE,
  };
  await app.register(async (scope) => {
    // Schemas here are documentation: these routes validate with Laravel-style messages and serialise plainly.
    scope.setValidatorCompiler(() => () => true);
    scope.setSerializerCompiler(() => (data) => JSON.stringify(data));
    await sessionRoutes(scope, routeDeps);
    await userRoutes(scope, routeDeps);
    await tokenRoutes(scope, routeDeps);
  });
  if (wiring.extraRoutes) await app.register(wiring.extraRoutes.plugin);
}
