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

/** Variables every service reads: where its infrastructure lives and its ports. */
export const serviceEnv = {
  LOG_LEVEL: logLevel,
  MONGO_URL: url(['mongodb', 'mongodb+srv']),
  NATS_URL: url(['nats']),
  GRPC_PORT: port(0),
  GRPC_HOST: z.string().default('127.0.0.1'),
  METRICS_PORT: port(0),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
};
