import { z } from 'zod';

/** Reusable zod fields for environment variables shared by every process. */
export const port = (fallback: number) =>
  z.coerce.number().int().min(0).max(65535).default(fallback);

export const url = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((value) => protocols.some((p) => value.startsWith(`${p}://`)), {
      message: `must be a ${protocols.join(' or ')} URL`,
    });

export const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');

export const logLevel = z
  .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  .default('info');

/**
 * OpenTelemetry's standard variables for trace export (libs/platform/src/tracing): without an
 * endpoint tracing is off. Every service and the gateway read them.
 */
export const tracingEnv = {
  OTEL_EXPORTER_OTLP_ENDPOINT: url(['http', 'https']).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url(['http', 'https']).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_SDK_DISABLED: z.enum(['true', 'false']).optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
};

/** How many days a log that grows with traffic keeps its rows (1 to 3,650; `applyRetention`). */
export const retentionDays = (fallback: number) =>
  z.coerce.number().positive().max(3_650).default(fallback);

/** Variables every service reads: where its infrastructure lives and its ports. */
export const serviceEnv = {
  LOG_LEVEL: logLevel,
  MONGO_URL: url(['mongodb', 'mongodb+srv']),
  NATS_URL: url(['nats']),
  GRPC_PORT: port(0),
  GRPC_HOST: z.string().default('127.0.0.1'),
  METRICS_PORT: port(0),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** A ping to MongoDB unanswered this long, or failed, fails calls fast (ADR 0743). */
  STORE_STALL_MS: z.coerce.number().int().min(100).max(60_000).default(500),
  STORE_PING_MS: z.coerce.number().int().min(10).max(10_000).default(100),
  ...tracingEnv,
};
