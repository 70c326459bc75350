import { notFound } from '@inventory/platform';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import type { SubscriptionDocument } from '../store/subscription.js';

export const SUBSCRIPTION_NOT_FOUND = 'Webhook subscription not found.';

/** The tenant's subscription; NOT_FOUND for an unknown id or another tenant's. */
export class GetSubscription {
  constructor(private readonly subscriptions: SubscriptionRepository) {}

  async execute(tenantId: string, id: number): Promise<SubscriptionDocument> {
    const subscription = await this.subscriptions.find(tenantId, id);
    if (!subscription) throw notFound(SUBSCRIPTION_NOT_FOUND);
    return subscription;
  }
}
