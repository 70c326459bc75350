import { notFound } from '@inventory/platform';
import type { HeldDeliveries } from '../workers/held-deliveries.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import type { SubscriptionDocument } from '../store/subscription.js';
import { SUBSCRIPTION_NOT_FOUND } from './get-subscription.js';

/**
 * Ends a pause (ADR 0412): the subscription is `resuming` and its held deliveries are sent one at
 * a time, oldest event first; resuming one that is not paused changes nothing.
 */
export class ResumeSubscription {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly held: Pick<HeldDeliveries, 'release'>,
  ) {}

  async execute(tenantId: string, id: number): Promise<SubscriptionDocument> {
    const resumed = await this.subscriptions.resume(tenantId, id);
    if (resumed) {
      this.held.release(tenantId, id);
      return resumed;
    }
    const current = await this.subscriptions.find(tenantId, id);
    if (!current) throw notFound(SUBSCRIPTION_NOT_FOUND);
    return current;
  }
}
