import { notFound } from '@inventory/platform';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import type { SubscriptionDocument } from '../store/subscription.js';
import { SUBSCRIPTION_NOT_FOUND } from './get-subscription.js';

/** A subscription and what the API shows of its pause. */
export interface PauseView {
  subscription: SubscriptionDocument;
  heldCount: number;
}

/**
 * Pauses a subscription by hand (ADR 0412): from now on its deliveries are stored `held`, not
 * sent, until it is resumed or the pause runs out. Pausing a paused one changes nothing.
 */
export class PauseSubscription {
  constructor(private readonly subscriptions: SubscriptionRepository) {}

  async execute(tenantId: string, id: number): Promise<SubscriptionDocument> {
    const paused = await this.subscriptions.pause(tenantId, id);
    if (paused) return paused;
    const current = await this.subscriptions.find(tenantId, id);
    if (!current) throw notFound(SUBSCRIPTION_NOT_FOUND);
    return current;
  }
}
