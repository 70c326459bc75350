import type { Redis } from '@inventory/platform';

/**
 * The per-tenant delivery cap (spec: 600 per minute per tenant), one fixed one-minute window
 * per tenant in Redis so every replica counts against the same number. A replica takes the
 * slots a whole batch needs in one INCRBY (ADR 0406): the counter is atomic, so replicas taking
 * blocks together still never admit more than the cap between them.
 */
export class RateCap {
  constructor(
    private readonly redis: Redis,
    private readonly perMinute: number,
    /** Which minute it is; tests pin it so a burst cannot straddle two windows. */
    private readonly clock: () => number = Date.now,
  ) {}

  /** Takes one slot of the tenant's current minute; false when the minute is full. */
  async take(tenantId: string, now = this.clock()): Promise<boolean> {
    return (await this.takeMany(tenantId, 1, now)) === 1;
  }

  /** Asks for `wanted` slots of the tenant's current minute; returns how many it got (0..wanted). */
  async takeMany(tenantId: string, wanted: number, now = this.clock()): Promise<number> {
    if (wanted <= 0) return 0;
    const minute = Math.floor(now / 60_000);
    const key = `outbound:rate:${tenantId}:${minute}`;
    const results = await this.redis.multi().incrby(key, wanted).pexpire(key, 120_000).exec();
    const after = Number(results?.[0]?.[1] ?? Number.POSITIVE_INFINITY);
    if (!Number.isFinite(after)) return 0;
    // The slots before ours were `after - wanted`; ours are those still under the cap.
    return Math.max(0, Math.min(wanted, this.perMinute - (after - wanted)));
  }
}
