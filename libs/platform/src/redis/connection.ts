import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type { Redis } from 'ioredis';

/**
 * A Redis client that fails commands fast while disconnected, instead of
 * queueing them forever. Commands issued in the same event-loop turn go out as
 * one pipeline (one write, one read), which is what keeps a per-request rate
 * limit cheap under load.
 */
export async function connectRedis(url: string, logger?: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', (error) => logger?.warn({ err: error }, 'redis error'));
  await redis.connect();
  return redis;
}
