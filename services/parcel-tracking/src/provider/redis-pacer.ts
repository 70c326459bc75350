import { randomUUID } from 'node:crypto';
import { OutageLog, withScripts, type Logger, type Redis } from '@inventory/platform';
import { KeyPacer, type Pacer } from './pacer.js';
import { keyFingerprint } from './key-fingerprint.js';

/**
 * Takes a slot if the key's window has room. The window is a sorted set: a
 * finished call is scored with its finish time, a call in flight with
 * now + lease (when it is assumed finished if its replica never says so).
 * Members scored at or before now − window have left it. Returns 0 when the
 * slot was taken, else the milliseconds until the oldest slot leaves the
 * window: exact for a finished call; for a call still in flight at least the
 * window, since its slot is counted until a full window after it finishes.
 * The clock is Redis's own (TIME), so replicas' clocks do not matter.
 */
const ACQUIRE = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local lease = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now + lease, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(lease + window))
  return 0
end
local oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2])
return math.ceil(math.min(oldest, now) + window - now)
`;

/**
 * Marks a call finished: its slot now counts from this moment. Plain ZADD (not
 * XX), so a call that outlived its lease is counted again rather than lost.
 */
const RELEASE = `
local t = redis.call('TIME')
redis.call('ZADD', KEYS[1], tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

interface PacerScripts {
  providerPaceAcquire(
    key: string,
    limit: number,
    windowMs: number,
    leaseMs: number,
    member: string,
  ): Promise<number>;
  providerPaceRelease(key: string, member: string, ttlMs: number): Promise<number>;
}

export interface RedisPacerOptions {
  perSecond: number;
  windowMs?: number;
  /** How long an unfinished call holds its slot before it is assumed finished (a crashed replica's). */
  leaseMs: number;
  /** A Redis reply slower than this counts as Redis being unreachable. */
  redisTimeoutMs?: number;
  logger: Logger;
}

/** The Redis key of an API key's window; the plaintext key never appears in Redis. */
export const paceKey = (apiKey: string): string => `provider:pace:${keyFingerprint(apiKey)}`;

/** After Redis failed, calls go straight to the in-process pacer this long before Redis is tried again. */
const RETRY_REDIS_AFTER_MS = 1_000;

/**
 * `KeyPacer`'s semantics (at most `perSecond` calls per key in any window,
 * each counted from when it finished, in-flight calls counted) shared by every
 * replica through one sorted set per key in Redis. Within a process a key's
 * callers take turns in call order; waiting is on timers for as long as Redis
 * says the oldest slot needs to leave the window.
 *
 * Redis unreachable (an error, or no reply within `redisTimeoutMs`): the call
 * is paced by this process alone (`KeyPacer`) instead of failing, and so are
 * the calls of the next second (so a hung Redis does not cost every call a
 * timeout); a warning is logged at most every 10 s. An outage must not stop tracking; the cost is
 * that replicas together may exceed the limit until Redis is back.
 */
export class RedisPacer implements Pacer {
  private readonly redis: Redis & PacerScripts;
  private readonly windowMs: number;
  private readonly redisTimeoutMs: number;
  private readonly fallback: KeyPacer;
  private readonly turns = new Map<string, Promise<void>>();
  private readonly outage: OutageLog;
  private skipRedisUntil = 0;

  constructor(
    redis: Redis,
    private readonly options: RedisPacerOptions,
  ) {
    this.windowMs = options.windowMs ?? 1_000;
    this.redisTimeoutMs = options.redisTimeoutMs ?? 1_000;
    this.fallback = new KeyPacer(options.perSecond, this.windowMs);
    this.outage = new OutageLog(options.logger);
    this.redis = withScripts<PacerScripts>(redis, {
      providerPaceAcquire: { numberOfKeys: 1, lua: ACQUIRE },
      providerPaceRelease: { numberOfKeys: 1, lua: RELEASE },
    });
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const redisKey = paceKey(key);
    const member = randomUUID();
    const acquired = (this.turns.get(redisKey) ?? Promise.resolve()).then(() =>
      this.acquire(redisKey, member),
    );
    const turn = acquired.then(() => undefined);
    this.turns.set(redisKey, turn);
    void turn.then(() => {
      if (this.turns.get(redisKey) === turn) this.turns.delete(redisKey);
    });
    if (!(await acquired)) return this.fallback.run(key, task);
    try {
      return await task();
    } finally {
      await this.release(redisKey, member);
    }
  }

  /** True once a slot is taken in Redis; false when Redis cannot be asked (never rejects). */
  private async acquire(redisKey: string, member: string): Promise<boolean> {
    for (;;) {
      if (Date.now() < this.skipRedisUntil) return false;
      let waitMs: number;
      try {
        waitMs = await this.withTimeout(
          this.redis.providerPaceAcquire(
            redisKey,
            this.options.perSecond,
            this.windowMs,
            this.options.leaseMs,
            member,
          ),
        );
      } catch (error) {
        this.failed(error);
        return false;
      }
      this.outage.recovered('provider pacer reaches Redis again; pacing across replicas');
      if (waitMs <= 0) return true;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  /** A failed release leaves the slot held until its lease runs out: slower, never over the limit. */
  private async release(redisKey: string, member: string): Promise<void> {
    try {
      await this.withTimeout(
        this.redis.providerPaceRelease(
          redisKey,
          member,
          Math.ceil(this.options.leaseMs + this.windowMs),
        ),
      );
    } catch (error) {
      this.failed(error);
    }
  }

  private withTimeout<T>(reply: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis did not answer within ${this.redisTimeoutMs} ms`)),
        this.redisTimeoutMs,
      );
    });
    return Promise.race([reply, timeout]).finally(() => clearTimeout(timer));
  }

  private failed(error: unknown): void {
    this.skipRedisUntil = Date.now() + RETRY_REDIS_AFTER_MS;
    this.outage.failed(
      error,
      'provider pacer cannot reach Redis; pacing provider calls per replica until it is back',
    );
  }
}
