import { notFound, validationFailed } from '@inventory/platform';
import { OUTBOUND_DELIVERY_STATUSES } from '@inventory/rules';
import { type DeliveryRepository } from '../store/delivery-repository.js';
import { type DeliveryDocument, type DeliveryFilter } from '../store/delivery.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import { SUBSCRIPTION_NOT_FOUND } from './get-subscription.js';

/** The delivery log of one subscription, newest first, filtered by status and event. */
export class ListDeliveries {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: DeliveryRepository,
  ) {}

  async execute(
    tenantId: string,
    subscriptionId: number,
    filter: DeliveryFilter,
    page: number,
    perPage: number,
  ): Promise<{ rows: DeliveryDocument[]; total: number }> {
    if (filter.status && !(OUTBOUND_DELIVERY_STATUSES as readonly string[]).includes(filter.status))
      throw validationFailed([
        {
          field: 'status',
          description: `The status must be one of: ${OUTBOUND_DELIVERY_STATUSES.join(', ')}.`,
        },
      ]);
    if (!(await this.subscriptions.find(tenantId, subscriptionId)))
      throw notFound(SUBSCRIPTION_NOT_FOUND);
    return this.deliveries.listPage(
      tenantId,
      subscriptionId,
      filter,
      Math.max(1, page),
      Math.max(1, perPage),
    );
  }
}
