import type { Redis } from '@inventory/platform';

/**
 * The per-tenant delivery cap (spec: 600 per minute per tenant), one fixed one-minute window
 * per tenant in Redis so every replica counts against the same number.
 */
export class RateCap {
  constructor(
    private readonly redis: Redis,
    private readonly perMinute: number,
  ) {}

  /** Takes one slot of the tenant's current minute; false when the minute is full. */
  async take(tenantId: string, now = Date.now()): Promise<boolean> {
    const minute = Math.floor(now / 60_000);
    const key = `outbound:rate:${tenantId}:${minute}`;
    const results = await this.redis.multi().incr(key).pexpire(key, 120_000).exec();
    const count = Number(results?.[0]?.[1] ?? Number.POSITIVE_INFINITY);
    return count <= this.perMinute;
  }
}
