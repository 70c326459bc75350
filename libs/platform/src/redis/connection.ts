import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type { Redis } from 'ioredis';

/**
 * A Redis client that fails commands fast while disconnected, instead of
 * queueing them forever.
 *
 * Auto-pipelining stays off: under evenly paced traffic each command landed in a
 * turn of its own, so every rate-limit check paid for a `Pipeline` object (an
 * event emitter, a promise, a set) that lived long enough to be promoted out of
 * the young generation. It doubled the gateway's scavenge time and bought no
 * measurable throughput (bench/gateway/README.md).
 */
const ERROR_LOG_INTERVAL_MS = 10_000;

export async function connectRedis(url: string, logger?: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // While Redis is down the client retries every ≤2 s and emits an error each time: one warning per
  // 10 s says so (with how long it has been down), and one line says when it is back.
  let failingSince: number | undefined;
  let lastWarning = 0;
  redis.on('error', (error) => {
    const now = Date.now();
    failingSince ??= now;
    if (now - lastWarning < ERROR_LOG_INTERVAL_MS) return;
    lastWarning = now;
    logger?.warn({ err: error, failing_for_ms: now - failingSince }, 'redis error');
  });
  redis.on('ready', () => {
    if (failingSince === undefined) return;
    logger?.info({ outage_ms: Date.now() - failingSince }, 'redis reachable again');
    failingSince = undefined;
    lastWarning = 0;
  });
  await redis.connect();
  return redis;
}
