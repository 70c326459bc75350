import type { SubscriptionRepository } from '../store/subscription-repository.js';
import type { SubscriptionDocument } from '../store/subscription.js';

/** One page of the tenant's subscriptions, oldest first. */
export class ListSubscriptions {
  constructor(private readonly subscriptions: SubscriptionRepository) {}

  execute(
    tenantId: string,
    page: number,
    perPage: number,
  ): Promise<{ rows: SubscriptionDocument[]; total: number }> {
    return this.subscriptions.listPage(tenantId, Math.max(1, page), Math.max(1, perPage));
  }
}
