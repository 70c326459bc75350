import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { OutageLog } from '../logging/outage-log.js';

export type { Redis } from 'ioredis';

export interface ConnectRedisOptions {
  /**
   * How long one command may wait for its reply. A frozen Redis (SIGSTOP, a stuck host) keeps
   * the TCP connection open and never answers: without this, every command waits forever and
   * so does every request that needs one. Default 500 ms: the request that waits on it is still
   * answered within the second an outage allows it (ADR 0701).
   */
  commandTimeoutMs?: number;
}

export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * A Redis client that fails commands fast while disconnected, instead of
 * queueing them forever, and fails a command that gets no reply within
 * `commandTimeoutMs` (a frozen Redis).
 *
 * Auto-pipelining stays off: under evenly paced traffic each command landed in a
 * turn of its own, so every rate-limit check paid for a `Pipeline` object (an
 * event emitter, a promise, a set) that lived long enough to be promoted out of
 * the young generation. It doubled the gateway's scavenge time and bought no
 * measurable throughput (bench/gateway/README.md).
 */
export async function connectRedis(
  url: string,
  logger?: Logger,
  options: ConnectRedisOptions = {},
): Promise<Redis> {
  const redis = new Redis(url, {
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // While Redis is down the client retries every ≤2 s and emits an error each time.
  const outage = new OutageLog(logger);
  redis.on('error', (error) => outage.failed(error, 'redis error'));
  redis.on('ready', () => outage.recovered('redis reachable again'));
  await redis.connect();
  return redis;
}
