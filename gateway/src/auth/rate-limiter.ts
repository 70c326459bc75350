import { withScripts, type Logger, type Redis } from '@inventory/platform';
import { RateLeases, type RateLeaseOptions } from './rate-leases.js';

/**
 * A sliding window log in one Lua script (ADR 0111): the key holds the times of the admissions of
 * the last period, oldest first, so at most `limit` requests pass in any window of one period,
 * which is what "N requests per minute" means to an integrator counting them. Every gateway
 * replica shares one exact budget per key, and concurrent requests cannot both take the last
 * slot; the clock is Redis's own (TIME), not the replicas'.
 *
 * ARGV[3] asks for a lease of that many slots (ADR 0717): granted only while at least half the
 * budget would be left after it, else one slot, as without it. A lease's slots are logged at the
 * end of the lease's lifetime (ARGV[4], ms), the latest moment the replica may hand them out, so
 * the window counts them for as long as any of them could still be admitted. The reply's sixth
 * value is the number of slots granted.
 */
const SLIDING_WINDOW = `
local limit = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local wanted = tonumber(ARGV[3]) or 1
local lease_ms = tonumber(ARGV[4]) or 0
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local key = KEYS[1]
while true do
  local oldest = redis.call('LINDEX', key, 0)
  if not oldest or tonumber(oldest) > now - period then break end
  redis.call('LPOP', key)
end
local count = redis.call('LLEN', key)
if count >= limit then
  local oldest = tonumber(redis.call('LINDEX', key, 0))
  local newest = tonumber(redis.call('LINDEX', key, -1))
  return {0, 0, math.ceil(newest + period), math.ceil(oldest + period - now), math.floor(now), 0}
end
local remaining = limit - count - 1
local granted = 1
if wanted > 1 then
  local extra = math.min(wanted - 1, remaining - math.ceil(limit / 2))
  if extra > 0 then
    granted = 1 + extra
    remaining = remaining - extra
  end
end
local at = now
if granted > 1 then at = now + lease_ms end
local stamp = string.format('%.3f', at)
for _ = 1, granted do redis.call('RPUSH', key, stamp) end
redis.call('PEXPIRE', key, math.ceil(period + lease_ms) + 1000)
return {1, remaining, math.ceil(at + period), 0, math.floor(now), granted}
`;

/**
 * The window log's own key beside the key a caller names: a GCRA replica of an older release
 * keeps a string under the plain name during a rolling deploy, and a list there would be a type
 * error, which the limiter would take for an outage and fail open.
 */
const WINDOW_SUFFIX = ':window';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the full budget is back. */
  resetAt: number;
  /** Whole seconds until the next request can pass (0 when allowed). */
  retryAfterSeconds: number;
}

/** What the limiter decided for one request (the `gateway_rate_limit_decisions_total` label). */
export type RateLimitDecision = 'allowed' | 'limited' | 'fail_open' | 'unavailable';

interface WindowScripts {
  slidingWindow(
    key: string,
    limit: number,
    periodMs: number,
    slots: number,
    leaseMs: number,
  ): Promise<[number, number, number, number, number, number]>;
}

export interface RateLimiterOptions {
  /** How long rate limiting may fail open while Redis is unreachable; after that requests get 503. */
  failOpenMs: number;
  /** The budget's period; the platform's and every token's limits are per minute (the default). */
  periodMs?: number;
  /** Lease sizing (ADR 0717): `maxSlots` from configuration; tests inject the clock. */
  leases?: Partial<RateLeaseOptions>;
}

const LEASE_DEFAULTS: RateLeaseOptions = {
  lifetimeMs: 100,
  maxSlots: 64,
  maxKeys: 10_000,
  now: () => performance.now(),
};

export class RateLimiter {
  private failingSince: number | undefined;
  private lastWarning = 0;
  private failedClosed = false;
  /** During an outage, whether a call to Redis (the probe) is already waiting for its answer. */
  private probing = false;
  private lastError: unknown;
  /** Told every decision (the gateway's metrics, http/metrics.ts). */
  onDecision?: (decision: RateLimitDecision) => void;
  private readonly leases: RateLeases;
  private readonly leaseOptions: RateLeaseOptions;
  /** Keys with a lease call (more than one slot asked) waiting for Redis. */
  private readonly leasing = new Set<string>();

  private readonly failOpenMs: number;
  private readonly periodMs: number;

  private readonly redis: Redis & WindowScripts;

  constructor(
    redis: Redis,
    private readonly logger: Logger,
    options: RateLimiterOptions,
  ) {
    this.redis = withScripts<WindowScripts>(redis, {
      slidingWindow: { numberOfKeys: 1, lua: SLIDING_WINDOW },
    });
    this.failOpenMs = options.failOpenMs;
    this.periodMs = options.periodMs ?? 60_000;
    this.leaseOptions = { ...LEASE_DEFAULTS, ...options.leases };
    this.leases = new RateLeases(this.leaseOptions);
  }

  /**
   * A slot of a lease this replica holds, without a promise (the busy key's usual case); undefined:
   * none is left, ask `take`.
   */
  takeLeased(key: string, limit: number): RateLimitResult | undefined {
    const leased = this.leases.take(key, limit);
    if (!leased) return undefined;
    this.onDecision?.('allowed');
    return { allowed: true, limit, ...leased, retryAfterSeconds: 0 };
  }

  /** Undefined: Redis is down and we are inside the fail-open window (no headers, request passes). */
  take(key: string, limit: number): Promise<RateLimitResult | undefined> {
    const leased = this.takeLeased(key, limit);
    return leased ? Promise.resolve(leased) : this.takeShared(key, limit);
  }

  /**
   * The key's budget in Redis, shared by every replica (a lease of several slots for a busy key),
   * once `takeLeased` has none left: what `take` does after it. Undefined as for `take`.
   */
  async takeShared(key: string, limit: number): Promise<RateLimitResult | undefined> {
    // During an outage one request at a time asks Redis; the others are answered from the
    // outage state at once, so a frozen Redis costs one command timeout, not one per request.
    if (this.failingSince !== undefined && this.probing) return this.failed(this.lastError);
    this.probing = this.failingSince !== undefined;
    let reply: [number, number, number, number, number, number];
    let slots = 1;
    // A lease's lifetime runs from before the call, so its slots expire here no later than Redis
    // logs them (its TIME is read after this).
    const askedAt = this.leaseOptions.now();
    try {
      // One lease call per key at a time: requests arriving meanwhile ask for their own slot,
      // so a burst of concurrent requests never takes several leases to drop all but one.
      slots = this.leasing.has(key) ? 1 : this.leases.slotsToAsk(key, limit);
      if (slots > 1) this.leasing.add(key);
      reply = await this.redis.slidingWindow(
        `${key}${WINDOW_SUFFIX}`,
        limit,
        this.periodMs,
        slots,
        this.leaseOptions.lifetimeMs,
      );
    } catch (error) {
      this.lastError = error;
      return this.failed(error);
    } finally {
      this.probing = false;
      if (slots > 1) this.leasing.delete(key);
    }
    if (this.failingSince !== undefined) {
      this.logger.info(
        { outage_ms: Date.now() - this.failingSince },
        'rate limiter reaches Redis again; limiting normally',
      );
      this.failingSince = undefined;
      this.failedClosed = false;
      this.lastWarning = 0;
    }
    const [allowed, remaining, resetMs, waitMs, , granted] = reply;
    this.onDecision?.(allowed === 1 ? 'allowed' : 'limited');
    const left = Math.max(0, remaining);
    const resetAt = Math.ceil(resetMs / 1000);
    if (allowed === 1) this.leases.granted(key, limit, granted, left, resetAt, askedAt);
    return {
      allowed: allowed === 1,
      limit,
      // A lease's slots still held here are requests left too.
      remaining: left + (allowed === 1 ? granted - 1 : 0),
      resetAt,
      retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(waitMs / 1000)),
    };
  }

  /**
   * Redis unreachable: inside the window requests pass unlimited (a warning at
   * most every 10 s); past it, one error line and then 503 until Redis is back,
   * so an outage can never turn into unlimited traffic for long.
   */
  private failed(error: unknown): undefined {
    const now = Date.now();
    this.failingSince ??= now;
    const failingForMs = now - this.failingSince;
    if (failingForMs <= this.failOpenMs) {
      if (now - this.lastWarning > 10_000) {
        this.lastWarning = now;
        this.logger.warn(
          { err: error, failing_for_ms: failingForMs, fail_open_ms: this.failOpenMs },
          'rate limiter cannot reach Redis; failing open for a bounded time',
        );
      }
      this.onDecision?.('fail_open');
      return undefined;
    }
    if (!this.failedClosed) {
      this.failedClosed = true;
      this.logger.error(
        { err: error, failing_for_ms: failingForMs, fail_open_ms: this.failOpenMs },
        'rate limiter still cannot reach Redis after the fail-open window; answering 503',
      );
    }
    this.onDecision?.('unavailable');
    throw new RateLimiterUnavailable();
  }
}

export class RateLimiterUnavailable extends Error {
  constructor() {
    super('rate limiter unavailable');
  }
}
