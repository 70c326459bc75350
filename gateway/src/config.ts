import { z } from 'zod';
import { booleanFlag, loadConfig, logLevel, port, tracingEnv, url } from '@inventory/platform';

const grpcAddress = z.string().regex(/^[\w.-]+:\d+$/, 'must be host:port');

const fields = z.object({
  LOG_LEVEL: logLevel,
  /** OTEL_EXPORTER_OTLP_ENDPOINT and friends: traces over OTLP/HTTP, off without an endpoint. */
  ...tracingEnv,
  HTTP_HOST: z.string().default('127.0.0.1'),
  HTTP_PORT: port(8080),
  /** Prometheus `/metrics`, on its own port (bound to HTTP_HOST) so it never shares the public API's; 0 = random. */
  METRICS_PORT: port(0),
  /** Tenants live at <slug>.<BASE_DOMAIN>; also the suffix trusted for tenant hosts. */
  BASE_DOMAIN: z.string().min(1).default('inventory.localhost'),
  /** Scheme of the public addresses the API generates (https in production). */
  PUBLIC_SCHEME: z.enum(['http', 'https']).default('https'),
  /** Port to put in generated public addresses when it is not the scheme's default. */
  PUBLIC_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Peers whose X-Forwarded-Host / X-Forwarded-For are believed (comma-separated IPs). */
  TRUSTED_PROXIES: z.string().default(''),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  REDIS_URL: url(['redis', 'rediss']),
  NATS_URL: url(['nats']),
  IDENTITY_GRPC_ADDRESS: grpcAddress,
  PARCEL_TRACKING_GRPC_ADDRESS: grpcAddress,
  WEBHOOK_INGEST_GRPC_ADDRESS: grpcAddress,
  OUTBOUND_DELIVERY_GRPC_ADDRESS: grpcAddress,
  ACTIVITY_GRPC_ADDRESS: grpcAddress,
  CATALOG_GRPC_ADDRESS: grpcAddress,
  GRPC_DEADLINE_MS: z.coerce.number().int().positive().default(5_000),
  /** Session cookies are Secure unless the deployment is plain local HTTP. */
  SESSION_COOKIE_SECURE: booleanFlag(true),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Identity (issue #4): how long a replica trusts a cached token record (revocations also arrive as events). */
  TOKEN_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5_000),
  /** How long a replica caches host → tenant. */
  TENANT_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  /** The platform's requests per minute per token (and per session user); tokens may set a lower one. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1_000),
  /** How long rate limiting fails open while Redis is unreachable, before answering 503. */
  RATE_LIMIT_FAIL_OPEN_MS: z.coerce.number().int().min(0).default(60_000),
  /**
   * The most slots of a key's budget a replica takes from Redis in one call (ADR 0717); 1 asks
   * Redis on every request. Leases are at most 1 % of a budget and live 100 ms.
   */
  RATE_LIMIT_LEASE_MAX_SLOTS: z.coerce.number().int().positive().default(64),
  /** How long an `Idempotency-Key`'s first answer is kept (ADR 0119): 24 h, as Stripe's. */
  IDEMPOTENCY_KEY_TTL_SECONDS: z.coerce.number().int().positive().default(86_400),
  /** The lease of a key's lock while its first request runs: past any request's deadline. */
  IDEMPOTENCY_LOCK_LEASE_MS: z.coerce.number().int().positive().default(60_000),
  LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_ATTEMPTS_PER_IP: z.coerce.number().int().positive().default(100),
  LOGIN_THROTTLE_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  /** The built web app served under /app (issue #17); default apps/web/dist of this checkout. */
  WEB_APP_DIR: z.string().min(1).optional(),
  NODE_ENV: z.string().default('development'),
  /**
   * Development only (`npm start` sets it): the slug of the tenant that requests to
   * `127.0.0.1` / `localhost` reach, for clients that cannot resolve `*.localhost` (Node's
   * fetch, Python, Postman). Unset: loopback hosts are unknown, as any other host.
   */
  DEV_LOOPBACK_TENANT: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'must be a tenant slug')
    .optional(),
});

const configSchema = fields.superRefine((config, context) => {
  if (config.NODE_ENV === 'production' && config.DEV_LOOPBACK_TENANT)
    context.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['DEV_LOOPBACK_TENANT'],
      message: 'is a development setting, refused when NODE_ENV=production',
    });
});

export type GatewayConfig = z.infer<typeof configSchema>;

export const readConfig = (env: NodeJS.ProcessEnv = process.env): GatewayConfig =>
  loadConfig(configSchema, env);
