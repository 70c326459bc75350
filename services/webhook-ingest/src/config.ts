import { z } from 'zod';
import { loadConfig, retentionDays, serviceEnv } from '@inventory/platform';

const grpcAddress = z.string().regex(/^[\w.-]+:\d+$/, 'must be host:port');
const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const configSchema = z.object({
  ...serviceEnv,
  MONGO_DB: z.string().min(1).default('webhook_ingest'),
  /** Checks `sign` headers and applies updates (it holds the API keys and the tracking rows). */
  PARCEL_TRACKING_GRPC_ADDRESS: grpcAddress.default('127.0.0.1:50052'),
  GRPC_CLIENT_DEADLINE_MS: positive(5_000),
  /** How long a claimed row stays with its worker; a killed worker's rows come back after it. */
  WEBHOOK_LEASE_MS: positive(30_000),
  WEBHOOK_POLL_INTERVAL_MS: positive(500),
  /** Claims of one row before it ends `failed`. */
  WEBHOOK_MAX_ATTEMPTS: positive(5),
  /** First retry back-off; doubles per attempt. */
  WEBHOOK_RETRY_BASE_MS: positive(1_000),
  WEBHOOK_PROCESSING_CONCURRENCY: positive(32),
  /** Rows waiting for their result at which ingest answers 503 (ADR 0729). */
  WEBHOOK_BACKLOG_LIMIT: positive(100_000),
  /** How often the waiting rows are counted against that bound. */
  WEBHOOK_BACKLOG_CHECK_MS: positive(1_000),
  /** Days the inbound webhook log keeps a row, by when it was received. */
  WEBHOOK_EVENT_RETENTION_DAYS: retentionDays(30),
  /** How long a replica holds a reprocess job without renewing it (ADR 0230). */
  WEBHOOK_REPROCESS_LEASE_MS: positive(30_000),
  /** How often reprocess jobs are looked for, and a job's progress counted while it waits. */
  WEBHOOK_REPROCESS_POLL_MS: positive(1_000),
});

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);
