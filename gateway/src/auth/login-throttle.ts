import { withScripts, type Logger, type Redis } from '@inventory/platform';
import { HttpError } from '../http/http-error.js';
import { sha256Hex } from './bearer.js';

export interface LoginThrottleSettings {
  maxPerAccount: number;
  /** Failures one address may have on one tenant before it waits; they leak away over the window. */
  maxPerIp: number;
  windowSeconds: number;
  /** Tests inject the clock the per-address level leaks by. */
  now?: () => number;
  /**
   * How long logins may go unthrottled while Redis fails (as the rate limiter's
   * RATE_LIMIT_FAIL_OPEN_MS); after that, logins answer 503 until Redis is back, so an
   * outage cannot become an unlimited password-guessing window. Default: no bound.
   */
  failOpenMs?: number;
}

/**
 * Adds one failure to a leaky bucket (ADR 0112): the level drains at `maxPerIp` per window, so an
 * address that stops failing gets its logins back gradually rather than all at once, and one that
 * keeps failing slowly is never blocked. KEYS[1] the bucket; ARGV: now (ms), drain per ms, TTL.
 */
const LEAKY_ADD = `
local now = tonumber(ARGV[1])
local level = tonumber(redis.call('HGET', KEYS[1], 'level') or '0')
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or ARGV[1])
level = math.max(0, level - math.max(0, now - at) * tonumber(ARGV[2])) + 1
redis.call('HSET', KEYS[1], 'level', string.format('%.6f', level), 'at', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return tostring(level)
`;

type Pipeline = ReturnType<Redis['multi']>;
/** A MULTI with the script above as a command (`withScripts`). */
type LeakyPipeline = Pipeline & {
  leakyAdd(key: string, now: number, drainPerMs: number, ttlMs: number): Pipeline;
};
interface LeakyScripts {
  leakyAdd(key: string, now: number, drainPerMs: number, ttlMs: number): Promise<string>;
}

/**
 * Failed logins counted in Redis per account (tenant + email, a fixed window from the first
 * failure) and per client address on each tenant (a leaky bucket, ADR 0112: one office behind
 * a NAT failing on one tenant never locks out another tenant's users). Redis down or frozen: logins
 * are not throttled (logged) for `failOpenMs`, then refused with 503; credentials
 * are always checked — authentication never fails open. While Redis fails, one call at a time asks it; the others skip
 * it at once, so a frozen Redis costs one command timeout, not one per login.
 */
export class LoginThrottle {
  private failing = false;
  private failingSince: number | undefined;
  private probing = false;

  /** Runs `command` unless Redis is known to be failing and another call is already probing it. */
  private async guarded<T>(command: () => Promise<T>): Promise<T> {
    if (this.failing && this.probing) throw new Error('redis unavailable (probe in flight)');
    this.probing = this.failing;
    try {
      const result = await command();
      this.failing = false;
      this.failingSince = undefined;
      return result;
    } catch (error) {
      this.failing = true;
      this.failingSince ??= Date.now();
      throw error;
    } finally {
      this.probing = false;
    }
  }

  private readonly now: () => number;
  /** How much of the per-address level drains per millisecond. */
  private readonly drainPerMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly settings: LoginThrottleSettings,
    private readonly logger: Logger,
  ) {
    withScripts<LeakyScripts>(redis, { leakyAdd: { numberOfKeys: 1, lua: LEAKY_ADD } });
    this.now = settings.now ?? Date.now;
    this.drainPerMs = settings.maxPerIp / (settings.windowSeconds * 1000);
  }

  /**
   * Both keys carry the tenant as a Redis Cluster hash tag (`{…}`): they are read and written in
   * one MULTI, which a cluster refuses across slots (deploy/SCALING.md §8).
   */
  private keys(tenantId: string, email: string, ip: string) {
    return [
      `login:fail:acct:{${tenantId}}:${sha256Hex(email.trim().toLowerCase())}`,
      `login:fail:ip:{${tenantId}}:${ip}`,
    ] as const;
  }

  /** Seconds until another attempt is allowed, or 0 when it is. */
  async blockedFor(tenantId: string, email: string, ip: string): Promise<number> {
    const [account, address] = this.keys(tenantId, email, ip);
    try {
      const [a, aTtl, bucket] = (await this.guarded(() =>
        this.redis.multi().get(account).pttl(account).hmget(address, 'level', 'at').exec(),
      ))!.map(([, value]) => value);
      const waits: number[] = [];
      if (Number(a ?? 0) >= this.settings.maxPerAccount) waits.push(Number(aTtl));
      const addressWait = this.addressWaitMs(bucket as [string | null, string | null]);
      if (addressWait > 0) waits.push(addressWait);
      return waits.length === 0 ? 0 : Math.max(1, Math.ceil(Math.max(...waits) / 1000));
    } catch (error) {
      const failingForMs = Date.now() - (this.failingSince ?? Date.now());
      if (this.settings.failOpenMs !== undefined && failingForMs > this.settings.failOpenMs) {
        this.logger.warn(
          { err: error, failing_for_ms: failingForMs },
          'login throttle cannot reach Redis past the fail-open window; refusing logins',
        );
        throw new HttpError(
          503,
          {
            message: 'The service is temporarily unavailable. Try again shortly.',
            code: 'rate_limiter_unavailable',
          },
          { 'retry-after': '5' },
        );
      }
      this.logger.warn({ err: error }, 'login throttle cannot reach Redis; not throttling');
      return 0;
    }
  }

  /** How long the address waits before its level is under the limit again (0: it may try). */
  private addressWaitMs([level, at]: [string | null, string | null]): number {
    if (level === null || at === null) return 0;
    const now = Number(level) - Math.max(0, this.now() - Number(at)) * this.drainPerMs;
    const over = now - this.settings.maxPerIp + 1;
    return over > 0 ? over / this.drainPerMs : 0;
  }

  async recordFailure(tenantId: string, email: string, ip: string): Promise<void> {
    const [account, address] = this.keys(tenantId, email, ip);
    const windowMs = this.settings.windowSeconds * 1000;
    await this.guarded(() =>
      (this.redis.multi().incr(account).pexpire(account, windowMs, 'NX') as LeakyPipeline)
        .leakyAdd(address, this.now(), this.drainPerMs, windowMs)
        .exec(),
    ).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'login throttle cannot record a failure'),
    );
  }

  async recordSuccess(tenantId: string, email: string, ip: string): Promise<void> {
    const [account] = this.keys(tenantId, email, ip);
    await this.guarded(() => this.redis.del(account)).catch(() => undefined);
  }
}
