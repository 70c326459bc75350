import type { Logger, Redis } from '@inventory/platform';
import { HttpError } from '../http/http-error.js';
import { sha256Hex } from './bearer.js';

export interface LoginThrottleSettings {
  maxPerAccount: number;
  maxPerIp: number;
  windowSeconds: number;
  /**
   * How long logins may go unthrottled while Redis fails (as the rate limiter's
   * RATE_LIMIT_FAIL_OPEN_MS); after that, logins answer 503 until Redis is back, so an
   * outage cannot become an unlimited password-guessing window. Default: no bound.
   */
  failOpenMs?: number;
}

/**
 * Failed logins counted in Redis per account (tenant + email) and per client
 * IP, over a fixed window from the first failure. Redis down or frozen: logins
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

  constructor(
    private readonly redis: Redis,
    private readonly settings: LoginThrottleSettings,
    private readonly logger: Logger,
  ) {}

  private keys(tenantId: string, email: string, ip: string) {
    return [
      `login:fail:acct:${tenantId}:${sha256Hex(email.trim().toLowerCase())}`,
      `login:fail:ip:${ip}`,
    ] as const;
  }

  /** Seconds until another attempt is allowed, or 0 when it is. */
  async blockedFor(tenantId: string, email: string, ip: string): Promise<number> {
    const [account, address] = this.keys(tenantId, email, ip);
    try {
      const [a, b, aTtl, bTtl] = (await this.guarded(() =>
        this.redis.multi().get(account).get(address).pttl(account).pttl(address).exec(),
      ))!.map(([, value]) => value);
      const waits: number[] = [];
      if (Number(a ?? 0) >= this.settings.maxPerAccount) waits.push(Number(aTtl));
      if (Number(b ?? 0) >= this.settings.maxPerIp) waits.push(Number(bTtl));
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

  async recordFailure(tenantId: string, email: string, ip: string): Promise<void> {
    const [account, address] = this.keys(tenantId, email, ip);
    const windowMs = this.settings.windowSeconds * 1000;
    await this.guarded(() =>
      this.redis
        .multi()
        .incr(account)
        .pexpire(account, windowMs, 'NX')
        .incr(address)
        .pexpire(address, windowMs, 'NX')
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
