import type { Subscription } from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { SubscriptionDocument } from '../store/subscription.js';
import { toSubscription } from './mappers.js';

/** Subscriptions as the API shows them, with their pause and how many deliveries they hold. */
export class SubscriptionView {
  constructor(
    private readonly deliveries: Pick<DeliveryRepository, 'heldCounts'>,
    private readonly pauseMaxMs: number,
  ) {}

  async many(tenantId: string, docs: SubscriptionDocument[]): Promise<Subscription[]> {
    // Only paused or resuming subscriptions can hold anything: the others cost no count.
    const holding = docs.filter((doc) => doc.paused_at || doc.resuming).map((doc) => doc.id);
    const held = await this.deliveries.heldCounts(tenantId, holding);
    return docs.map((doc) =>
      toSubscription(doc, { heldCount: held.get(doc.id) ?? 0, pauseMaxMs: this.pauseMaxMs }),
    );
  }

  async one(tenantId: string, doc: SubscriptionDocument): Promise<Subscription> {
    return (await this.many(tenantId, [doc]))[0]!;
  }
}
