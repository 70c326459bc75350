import type { Logger, Redis } from '@inventory/platform';
import { sha256Hex } from './bearer.js';

export interface LoginThrottleSettings {
  maxPerAccount: number;
  maxPerIp: number;
  windowSeconds: number;
}

/**
 * Failed logins counted in Redis per account (tenant + email) and per client
 * IP, over a fixed window from the first failure. Redis down or frozen: logins
 * are not throttled (logged), but credentials are still checked — authentication
 * never fails open. While Redis fails, one call at a time asks it; the others skip
 * it at once, so a frozen Redis costs one command timeout, not one per login.
 */
export class LoginThrottle {
  private failing = false;
  private probing = false;

  /** Runs `command` unless Redis is known to be failing and another call is already probing it. */
  private async guarded<T>(command: () => Promise<T>): Promise<T> {
    if (this.failing && this.probing) throw new Error('redis unavailable (probe in flight)');
    this.probing = this.failing;
    try {
      const result = await command();
      this.failing = false;
      return result;
    } catch (error) {
      this.failing = true;
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
