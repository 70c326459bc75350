import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { HealthWindowRow } from '../store/delivery-queries.js';
import type { GetSubscription } from './get-subscription.js';

const HOUR_MS = 3_600_000;
export const HEALTH_WINDOWS = { last_24h: 24 * HOUR_MS, last_7d: 7 * 24 * HOUR_MS } as const;

export interface SubscriptionHealth {
  last_24h: HealthWindowRow;
  last_7d: HealthWindowRow;
}

/** A subscription's health over the last 24 h and 7 days (ADR 0417); NOT_FOUND as its reads. */
export class GetSubscriptionHealth {
  constructor(
    private readonly getSubscription: GetSubscription,
    private readonly deliveries: DeliveryRepository,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(tenantId: string, id: number): Promise<SubscriptionHealth> {
    await this.getSubscription.execute(tenantId, id);
    const now = this.clock().getTime();
    const [last_24h, last_7d] = await Promise.all([
      this.deliveries.health(tenantId, id, new Date(now - HEALTH_WINDOWS.last_24h)),
      this.deliveries.health(tenantId, id, new Date(now - HEALTH_WINDOWS.last_7d)),
    ]);
    return { last_24h, last_7d };
  }
}
