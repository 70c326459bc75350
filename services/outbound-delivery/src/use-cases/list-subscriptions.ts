import type { SubscriptionDocument, SubscriptionStore } from '../store/subscription-store.js';

/** One page of the tenant's subscriptions, oldest first. */
export class ListSubscriptions {
  constructor(private readonly subscriptions: SubscriptionStore) {}

  execute(
    tenantId: string,
    page: number,
    perPage: number,
  ): Promise<{ rows: SubscriptionDocument[]; total: number }> {
    return this.subscriptions.listPage(tenantId, Math.max(1, page), Math.max(1, perPage));
  }
}
