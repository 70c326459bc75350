import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import {
  connectNats,
  connectRedis,
  createLogger,
  createMetrics,
  startMetricsServer,
  startTracing,
  stopAll,
  type Logger,
  type TracingHandle,
} from '@inventory/platform';
import { createIdentityAdapter } from './adapters/identity.js';
import { createServiceHealthChecks } from './adapters/service-health.js';
import { createParcelTrackingAdapter } from './adapters/parcel-tracking.js';
import { createWebhookIngestAdapter } from './adapters/webhook-ingest.js';
import { createActivityAdapter } from './adapters/activity.js';
import { createOutboundDeliveryAdapter } from './adapters/outbound-delivery.js';
import { createCatalogAdapter } from './adapters/catalog.js';
import { buildApp } from './app.js';
import { createAuthWiring, type AuthWiring, type ExtraRoutes } from './auth/index.js';
import { readConfig, type GatewayConfig } from './config.js';

/** The route table, for suites that must cover every route (test-e2e/test/resilience). */
export { ROUTE_TABLE } from './routes/route-table.js';
/** Where a key's lock lives in Redis, for suites that hold one as an in-flight request would. */
export { idempotencyLockName } from './http/idempotency-key.js';

export interface GatewayHandle {
  app: FastifyInstance;
  config: GatewayConfig;
  logger: Logger;
  /** http://host:port the gateway listens on. */
  url: string;
  /** http://host:port of the Prometheus `/metrics` server (METRICS_PORT; never the public port). */
  metricsUrl: string;
  /** Tenancy, token cache, limiter and current-user loader: for tests that drive them directly. */
  auth: AuthWiring;
  /** Span export (ADR 0711); `flush()` sends what is buffered, `enabled` false without an endpoint. */
  tracing: TracingHandle;
  stop(): Promise<void>;
}

export interface BootstrapOptions {
  /** Test-only routes with their access rules (e.g. scoped probes). */
  extraRoutes?: ExtraRoutes;
  /** Where log lines go (default stdout); tests capture them to prove secrets never appear. */
  logDestination?: DestinationStream;
}

export async function bootstrap(
  env: NodeJS.ProcessEnv = process.env,
  options: BootstrapOptions = {},
): Promise<GatewayHandle> {
  const config = readConfig(env);
  const logger = createLogger({
    service: 'gateway',
    level: config.LOG_LEVEL,
    destination: options.logDestination,
  });
  const metrics = createMetrics('gateway');
  const tracing = startTracing('gateway', config);
  const redis = await connectRedis(config.REDIS_URL, logger);
  const nats = await connectNats(config.NATS_URL, 'gateway', logger);
  const services = createServiceHealthChecks({
    identity: config.IDENTITY_GRPC_ADDRESS,
    'parcel-tracking': config.PARCEL_TRACKING_GRPC_ADDRESS,
    'webhook-ingest': config.WEBHOOK_INGEST_GRPC_ADDRESS,
    'outbound-delivery': config.OUTBOUND_DELIVERY_GRPC_ADDRESS,
    activity: config.ACTIVITY_GRPC_ADDRESS,
    catalog: config.CATALOG_GRPC_ADDRESS,
  });
  const identity = createIdentityAdapter(config.IDENTITY_GRPC_ADDRESS, {
    deadlineMs: config.GRPC_DEADLINE_MS,
  });
  const parcelTracking = createParcelTrackingAdapter(config.PARCEL_TRACKING_GRPC_ADDRESS, {
    deadlineMs: config.GRPC_DEADLINE_MS,
  });
  const webhookIngest = createWebhookIngestAdapter(config.WEBHOOK_INGEST_GRPC_ADDRESS, {
    deadlineMs: config.GRPC_DEADLINE_MS,
  });
  const activity = createActivityAdapter(config.ACTIVITY_GRPC_ADDRESS, {
    deadlineMs: config.GRPC_DEADLINE_MS,
  });
  const outboundDelivery = createOutboundDeliveryAdapter(config.OUTBOUND_DELIVERY_GRPC_ADDRESS, {
    deadlineMs: config.GRPC_DEADLINE_MS,
  });
  const catalog = createCatalogAdapter(config.CATALOG_GRPC_ADDRESS, {
    deadlineMs: config.GRPC_DEADLINE_MS,
  });
  let shuttingDown = false;
  const auth = createAuthWiring(config, redis, nats, logger, identity, options.extraRoutes);
  const app = await buildApp({
    config,
    logger,
    redis,
    nats,
    services,
    auth,
    registry: metrics.registry,
    isShuttingDown: () => shuttingDown,
    identity,
    parcelTracking,
    webhookIngest,
    activity,
    outboundDelivery,
    catalog,
  });
  // Metrics on their own port, as every service serves them (the public port never exposes them).
  const metricsServer = await startMetricsServer(
    metrics.registry,
    config.HTTP_HOST,
    config.METRICS_PORT,
  );
  try {
    await app.listen({ host: config.HTTP_HOST, port: config.HTTP_PORT });
  } catch (error) {
    await metricsServer.stop();
    await tracing.shutdown();
    throw error;
  }
  const address = app.server.address() as AddressInfo;

  return {
    app,
    config,
    logger,
    auth,
    tracing,
    url: `http://${config.HTTP_HOST}:${address.port}`,
    metricsUrl: `http://${config.HTTP_HOST}:${metricsServer.port}`,
    async stop() {
      shuttingDown = true;
      // app.close() stops accepting and waits for in-flight requests before resolving.
      await stopAll([
        () => app.close(),
        () => nats.drain(),
        async () => (redis.status === 'ready' ? redis.quit() : redis.disconnect()),
        async () => services.forEach((service) => service.close()),
        async () => parcelTracking.close(),
        async () => webhookIngest.close(),
        async () => activity.close(),
        async () => outboundDelivery.close(),
        async () => catalog.close(),
        async () => auth.close(),
        async () => identity.close(),
        () => metricsServer.stop(),
        () => tracing.shutdown(),
      ]);
    },
  };
}
