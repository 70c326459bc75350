import { notFound } from '@inventory/platform';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { SubscriptionStore } from '../store/subscription-store.js';
import { SUBSCRIPTION_NOT_FOUND } from './get-subscription.js';

/** Removes the subscription; its scheduled retries are skipped, its log kept. */
export class DeleteSubscription {
  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly deliveries: DeliveryRepository,
  ) {}

  async execute(tenantId: string, id: number): Promise<void> {
    if (!(await this.subscriptions.delete(tenantId, id))) throw notFound(SUBSCRIPTION_NOT_FOUND);
    await this.deliveries.skipPending(tenantId, id);
  }
}
