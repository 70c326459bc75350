import { notFound } from '@inventory/platform';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { DeliveryDocument } from '../store/delivery.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import { DELIVERY_NOT_FOUND } from './get-delivery.js';
import { SUBSCRIPTION_NOT_FOUND } from './get-subscription.js';
import { INACTIVE } from './send-test-ping.js';

/** A new cycle of attempts for a past delivery: the same stored body, the same delivery id. */
export class Redeliver {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly wake: () => void,
  ) {}

  async execute(
    tenantId: string,
    subscriptionId: number,
    deliveryId: string,
  ): Promise<DeliveryDocument> {
    const subscription = await this.subscriptions.find(tenantId, subscriptionId);
    if (!subscription) throw notFound(SUBSCRIPTION_NOT_FOUND);
    const delivery = await this.deliveries.find(tenantId, subscriptionId, deliveryId);
    if (!delivery) throw notFound(DELIVERY_NOT_FOUND);
    if (!subscription.is_active) throw INACTIVE();
    const restarted = await this.deliveries.restartCycle(tenantId, deliveryId);
    this.wake();
    return restarted!;
  }
}
