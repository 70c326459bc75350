import { z } from 'zod';
import { booleanFlag, loadConfig, retentionDays, serviceEnv, url } from '@inventory/platform';

/** A throwaway key for development and tests only; production must set its own. */
export const DEV_WEBHOOK_SECRET_ENCRYPTION_KEY = Buffer.alloc(
  32,
  'outbound-delivery-dev-key',
).toString('base64');

const encryptionKey = z.string().refine((value) => Buffer.from(value, 'base64').length === 32, {
  message: 'must be 32 bytes, base64-encoded',
});

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** `30000,300000`: the waits before the second, third... attempt. */
const delayList = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'must be comma-separated milliseconds')
  .transform((value) => value.split(',').map(Number));

export const configSchema = z
  .object({
    ...serviceEnv,
    NODE_ENV: z.string().default('development'),
    MONGO_DB: z.string().min(1).default('outbound_delivery'),
    /** Redis holding each tenant's per-minute delivery count, shared by every replica. */
    REDIS_URL: url(['redis', 'rediss']),
    /** AES-256-GCM key for subscription secrets at rest (base64 of 32 bytes). */
    WEBHOOK_SECRET_ENCRYPTION_KEY: encryptionKey.optional(),
    /** The short name in X-<NAME>-Event, X-<NAME>-Delivery-Id, X-<NAME>-Signature, User-Agent. */
    WEBHOOK_SHORT_NAME: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9]{0,15}$/, 'must be 1-16 letters and digits')
      .default('SVC'),
    /** Development only: accept http:// receiver URLs. */
    WEBHOOK_ALLOW_HTTP: booleanFlag(false),
    /** Development and tests only: accept receivers on loopback addresses (127.0.0.0/8, ::1). */
    WEBHOOK_ALLOW_LOOPBACK: booleanFlag(false),
    WEBHOOK_MAX_ATTEMPTS: positiveInt(3),
    WEBHOOK_RETRY_DELAYS_MS: delayList.default('30000,300000'),
    WEBHOOK_TIMEOUT_MS: positiveInt(15_000),
    WEBHOOK_DEACTIVATE_AFTER_FAILURES: positiveInt(25),
    WEBHOOK_RATE_PER_MINUTE: positiveInt(600),
    /** How long a rotated-out secret keeps signing next to the new one. */
    WEBHOOK_SECRET_OVERLAP_MS: positiveInt(24 * 3600 * 1000),
    /**
     * The longest a pause holds deliveries (ADR 0412): a subscription paused longer resumes by
     * itself and sends what it held. Far below the delivery log's retention, so nothing held is
     * deleted unsent.
     */
    WEBHOOK_PAUSE_MAX_MS: positiveInt(7 * 24 * 3600 * 1000),
    /** Response bodies kept in the delivery log are cut to this many bytes. */
    WEBHOOK_RESPONSE_BODY_LIMIT_BYTES: positiveInt(4096),
    /** How often an idle worker looks for due deliveries. */
    DELIVERY_POLL_MS: positiveInt(500),
    /** Attempts in flight at once per replica: fan-out's first attempts, and the worker's. */
    DELIVERY_CONCURRENCY: positiveInt(32),
    /**
     * How long an attempt is held before another replica may take it (a crashed one's): a
     * claim's lease, and the ack wait of the events whose first attempts fan-out makes.
     */
    DELIVERY_LEASE_MS: z.coerce.number().int().positive().optional(),
    /** Days the delivery log keeps a delivery with its attempts, by when it was created. */
    // At least the longest health window (7 days, ADR 0417), so the attempt log it reads is whole.
    DELIVERY_RETENTION_DAYS: retentionDays(90).pipe(z.number().min(7)),
  })
  .superRefine((config, context) => {
    if (config.NODE_ENV === 'production' && !config.WEBHOOK_SECRET_ENCRYPTION_KEY) {
      context.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['WEBHOOK_SECRET_ENCRYPTION_KEY'],
        message: 'is required in production',
      });
    }
    if (config.WEBHOOK_RETRY_DELAYS_MS.length < config.WEBHOOK_MAX_ATTEMPTS - 1) {
      context.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['WEBHOOK_RETRY_DELAYS_MS'],
        message: 'needs one wait per retry (WEBHOOK_MAX_ATTEMPTS - 1)',
      });
    }
  })
  .transform((config) => ({
    ...config,
    WEBHOOK_SECRET_ENCRYPTION_KEY:
      config.WEBHOOK_SECRET_ENCRYPTION_KEY ?? DEV_WEBHOOK_SECRET_ENCRYPTION_KEY,
    DELIVERY_LEASE_MS: config.DELIVERY_LEASE_MS ?? config.WEBHOOK_TIMEOUT_MS + 10_000,
  }));

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);
