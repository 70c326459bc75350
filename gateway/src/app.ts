import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { createServer, type IncomingMessage, type ServerOptions } from 'node:http';
import { enterContext, newRequestId, runWithContext, type Logger } from '@inventory/platform';
import type { IdentityAdapter } from './adapters/identity.js';
import { registerAuth, type AuthWiring } from './auth/index.js';
import { droppingChangedTokens } from './auth/token-changes.js';
import type { GatewayConfig } from './config.js';
import { errorEnvelopeServerOptions, registerErrorHandling } from './http/error-handler.js';
import { registerHttpMetrics } from './http/metrics.js';
import { refuseUndeclaredRoutes } from './http/routes.js';
import { registerIdempotency } from './http/idempotency.js';
import { IdempotencyStore } from './http/idempotency-store.js';
import { ROUTE_TABLE } from './routes/route-table.js';
import { registerHttpTracing } from './http/tracing.js';
import { lazyChildLoggerFactory } from './http/request-logger.js';
import { registerOpenApi } from './openapi/index.js';
import { healthRoutes, type HealthRouteDeps } from './routes/health.js';
import { identityRoutes } from './routes/identity/index.js';
import type { ParcelTrackingAdapter } from './adapters/parcel-tracking.js';
import type { WebhookIngestAdapter } from './adapters/webhook-ingest.js';
import type { ActivityAdapter } from './adapters/activity.js';
import type { OutboundDeliveryAdapter } from './adapters/outbound-delivery.js';
import { parcelTrackingActivityRoutes } from './routes/parcel-tracking/activity.js';
import type { CatalogAdapter } from './adapters/catalog.js';
import { catalogRoutes } from './routes/catalog/listings.js';
import { parcelTrackingRoutes } from './routes/parcel-tracking/instances.js';
import { parcelTrackingTrackingsRoutes } from './routes/parcel-tracking/trackings.js';
import { parcelTrackingWebhookRoutes } from './routes/webhooks/parcel-tracking.js';
import { alertRoutes } from './routes/alerts/alerts.js';
import { webhookEventTypeRoutes } from './routes/webhook-event-types/routes.js';
import { webhookSubscriptionRoutes } from './routes/webhook-subscriptions/routes.js';
import { parcelTrackingWebhookLogRoutes } from './routes/parcel-tracking/webhooks.js';
import { webhookReprocessRoutes } from './routes/parcel-tracking/webhook-reprocess.js';
import { webAppRoutes } from './routes/web-app/routes.js';

export interface GatewayDeps extends HealthRouteDeps {
  config: GatewayConfig;
  logger: Logger;
  /** Where request metrics are recorded; served on METRICS_PORT, not by this app. */
  registry: Registry;
  identity: IdentityAdapter;
  parcelTracking: ParcelTrackingAdapter;
  webhookIngest: WebhookIngestAdapter;
  activity: ActivityAdapter;
  outboundDelivery: OutboundDeliveryAdapter;
  catalog: CatalogAdapter;
  /** Tenancy, authentication, route-table enforcement, rate limits, request log (issue #4). */
  auth: AuthWiring;
}

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;
const REQUEST_ID = Symbol('requestId');

/** The options Fastify hands a server factory, as far as the server needs them. */
interface FactoryOptions {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * A caller's X-Request-Id is kept when it is sane, so a request is traceable end to end; else a
 * new one. Decided once per request (the server's context and Fastify's `request.id` agree).
 */
function requestIdOf(request: IncomingMessage & { [REQUEST_ID]?: string }): string {
  if (request[REQUEST_ID]) return request[REQUEST_ID];
  const given = request.headers['x-request-id'];
  return (request[REQUEST_ID] =
    typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : newRequestId());
}

/**
 * Builds the HTTP surface. Kept free of listening and process concerns so tests
 * drive it with `app.inject()` over the same wiring production uses.
 */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // pino's Logger is a FastifyBaseLogger; the cast keeps the app typed with the base logger.
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: deps.config.BODY_LIMIT_BYTES,
    trustProxy: deps.config.TRUSTED_PROXIES
      ? deps.config.TRUSTED_PROXIES.split(',').map((ip) => ip.trim())
      : false,
    genReqId: (request) => requestIdOf(request),
    // Each request starts in a context of its own, before Fastify logs "incoming request": on a
    // kept-alive connection the previous request's context (tenant, user) would otherwise still
    // be the current one there (AsyncLocalStorage follows the socket's callbacks).
    serverFactory: (handler, fastifyOptions) => {
      const options = fastifyOptions as FactoryOptions;
      const server = createServer(options.http ?? {}, (request, response) =>
        runWithContext({ requestId: requestIdOf(request) }, () => handler(request, response)),
      );
      // What Fastify sets on a server it makes itself.
      server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
      server.requestTimeout = options.requestTimeout ?? 0;
      server.setTimeout(options.connectionTimeout ?? 0);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
    childLoggerFactory: lazyChildLoggerFactory,
    // Parser, router, missing-Host and shutdown errors in the specification's envelopes (#18).
    ...errorEnvelopeServerOptions,
  });

  // Callback style, as every per-request hook of the gateway: an async hook costs a promise per
  // request for synchronous work (see http/metrics.ts).
  app.addHook('onRequest', (request, reply, done) => {
    enterContext({ requestId: request.id });
    void reply.header('x-request-id', request.id);
    done();
  });

  registerHttpTracing(app);
  registerErrorHandling(app);
  registerHttpMetrics(app, deps.registry, deps.auth.limiter);
  // Before any route: every route after this is documented in OpenAPI and guarded by the route table.
  await registerOpenApi(app, deps.auth.routeTable);
  await registerAuth(app, deps.auth, deps.identity);
  // Before any route: the routes that declare `idempotent` get its hooks as they are added.
  registerIdempotency(app, {
    store: new IdempotencyStore(deps.redis, {
      ttlMs: deps.config.IDEMPOTENCY_KEY_TTL_SECONDS * 1000,
      leaseMs: deps.config.IDEMPOTENCY_LOCK_LEASE_MS,
    }),
    routeTable: deps.auth.routeTable,
    logger: deps.logger,
  });
  await app.register(gatewayRoutes, deps);
  // Test-only probes (BootstrapOptions.extraRoutes) sit outside: an unlisted one shows deny by default.
  if (deps.auth.extraRoutes) await app.register(deps.auth.extraRoutes.plugin);
  return app;
}

/**
 * Every route of the gateway's own modules. Inside, a route that `ROUTE_TABLE` does not declare
 * fails the start (ADR 0014): the table is built from the modules' declarations.
 */
async function gatewayRoutes(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  refuseUndeclaredRoutes(app, ROUTE_TABLE);
  const publicUrl = {
    publicScheme: deps.config.PUBLIC_SCHEME,
    publicPort: deps.config.PUBLIC_PORT,
  };
  await app.register(identityRoutes, {
    identity: droppingChangedTokens(deps.identity, deps.auth.tokens),
    currentUsers: deps.auth.currentUsers,
    throttle: deps.auth.throttle,
    sessionCookieSecure: deps.config.SESSION_COOKIE_SECURE,
  });
  await app.register(healthRoutes, deps);
  await app.register(parcelTrackingRoutes, { parcelTracking: deps.parcelTracking, ...publicUrl });
  await app.register(parcelTrackingWebhookRoutes, { webhookIngest: deps.webhookIngest });
  await app.register(parcelTrackingActivityRoutes, {
    parcelTracking: deps.parcelTracking,
    activity: deps.activity,
    ...publicUrl,
  });
  await app.register(alertRoutes, { activity: deps.activity, ...publicUrl });
  await app.register(webhookSubscriptionRoutes, {
    outboundDelivery: deps.outboundDelivery,
    ...publicUrl,
  });
  await app.register(webhookEventTypeRoutes);
  await app.register(catalogRoutes, { catalog: deps.catalog });
  await app.register(parcelTrackingTrackingsRoutes, {
    parcelTracking: deps.parcelTracking,
    webhookIngest: deps.webhookIngest,
    activity: deps.activity,
    ...publicUrl,
  });
  await app.register(parcelTrackingWebhookLogRoutes, {
    parcelTracking: deps.parcelTracking,
    webhookIngest: deps.webhookIngest,
    ...publicUrl,
  });
  await app.register(webhookReprocessRoutes, {
    parcelTracking: deps.parcelTracking,
    webhookIngest: deps.webhookIngest,
  });
  // The web app (issue #17): static files under /app on every tenant host.
  await app.register(webAppRoutes, { webAppDir: deps.config.WEB_APP_DIR });
}
