import { z } from 'zod';
import { loadConfig, retentionDays, serviceEnv, url } from '@inventory/platform';

const grpcAddress = z.string().regex(/^[\w.-]+:\d+$/, 'must be host:port');

/** A throwaway key for development and tests only; production must set its own. */
export const DEV_PROVIDER_KEY_ENCRYPTION_KEY = Buffer.alloc(32, 'parcel-tracking-dev-key').toString(
  'base64',
);

const encryptionKey = z.string().refine((value) => Buffer.from(value, 'base64').length === 32, {
  message: 'must be 32 bytes, base64-encoded',
});

export const configSchema = z
  .object({
    ...serviceEnv,
    NODE_ENV: z.string().default('development'),
    MONGO_DB: z.string().min(1).default('parcel_tracking'),
    /** The provider's API base; endpoints live under <base>/track/v2.2. */
    PROVIDER_BASE_URL: url(['http', 'https']).default('http://127.0.0.1:4010'),
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
    /** Requests per second per API key (the provider's limit). */
    PROVIDER_RATE_PER_SECOND: z.coerce.number().int().positive().default(3),
    /**
     * Redis holding each API key's pacing window, so all replicas together keep to the
     * provider's limit (ADR 0205).
     */
    REDIS_URL: url(['redis', 'rediss']),
    /**
     * How long an unfinished provider call holds its pacing slot before it is taken for
     * finished (a crashed replica's); defaults to PROVIDER_TIMEOUT_MS + 1 s.
     */
    PROVIDER_PACE_LEASE_MS: z.coerce.number().int().positive().optional(),
    PROVIDER_BREAKER_RESET_MS: z.coerce.number().int().positive().default(10_000),
    // How long the dashboard's live quota is reused per API key (0: read every time).
    QUOTA_CACHE_TTL_MS: z.coerce.number().int().nonnegative().default(10_000),
    /** AES-256-GCM key for provider API keys at rest (base64 of 32 bytes). */
    PROVIDER_KEY_ENCRYPTION_KEY: encryptionKey.optional(),
    // How long this replica reuses an instance's decrypted key to check webhook signatures; its
    // own updates and deletes drop it at once, another replica's are seen within this (ADR 0225).
    WEBHOOK_KEY_CACHE_TTL_MS: z.coerce.number().int().nonnegative().default(2_000),
    // How long this replica reuses an instance's tracking scope (its stalled thresholds and the
    // instances whose rows it lists); its own changes drop it at once, another's within this (ADR 0240).
    TRACKING_SCOPE_CACHE_TTL_MS: z.coerce.number().int().nonnegative().default(2_000),
    /** webhook-ingest's gRPC address (the central webhook token registry). */
    WEBHOOK_INGEST_GRPC_ADDRESS: grpcAddress.default('127.0.0.1:50053'),
    GRPC_CLIENT_DEADLINE_MS: z.coerce.number().int().positive().default(5_000),
    /** Retry back-off of the disconnect worker that stops trackings at the provider. */
    STOP_RETRY_DELAY_MS: z.coerce.number().int().positive().default(5_000),
    /** How often the registration, polling and stop workers run; 0 turns them off (tests). */
    TRACKING_WORKER_INTERVAL_MS: z.coerce.number().int().nonnegative().default(5_000),
    /** How long a worker's claim on a row lasts before another replica may take it. */
    TRACKING_LEASE_MS: z.coerce.number().int().positive().default(60_000),
    /** First back-off after a failed registration call; doubles up to the maximum. */
    REGISTRATION_BACKOFF_MS: z.coerce.number().int().positive().default(5_000),
    REGISTRATION_MAX_BACKOFF_MS: z.coerce.number().int().positive().default(600_000),
    /** An active row not refreshed for this long is polled with gettrackinfo. */
    POLL_STALE_AFTER_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(6 * 3600_000),
    /** Delivered rows are stopped at the provider this long after delivery. */
    STOP_DELIVERED_AFTER_MS: z.coerce
      .number()
      .int()
      .nonnegative()
      .default(7 * 24 * 3600_000),
    /** How often the stalled and late shipments are looked for, to alert each once (ADR 0218). */
    SHIPMENT_WATCH_INTERVAL_MS: z.coerce.number().int().nonnegative().default(60_000),
    /** A row's checkpoints are deleted this many days after it last took a new one (ADR 0216). */
    CHECKPOINT_RETENTION_DAYS: retentionDays(365),
  })
  .superRefine((config, context) => {
    if (config.NODE_ENV === 'production' && !config.PROVIDER_KEY_ENCRYPTION_KEY) {
      context.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['PROVIDER_KEY_ENCRYPTION_KEY'],
        message: 'is required in production',
      });
    }
  })
  .transform((config) => ({
    ...config,
    PROVIDER_KEY_ENCRYPTION_KEY:
      config.PROVIDER_KEY_ENCRYPTION_KEY ?? DEV_PROVIDER_KEY_ENCRYPTION_KEY,
  }));

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);
