import { notFound } from '@inventory/platform';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import { SUBSCRIPTION_NOT_FOUND } from './get-subscription.js';

/** Removes the subscription; its scheduled retries are skipped, its log kept. */
export class DeleteSubscription {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: DeliveryRepository,
  ) {}

  async execute(tenantId: string, id: number): Promise<void> {
    if (!(await this.subscriptions.delete(tenantId, id))) throw notFound(SUBSCRIPTION_NOT_FOUND);
    await this.deliveries.skipPending(tenantId, id);
  }
}
