import { notFound } from '@inventory/platform';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { DeliveryDocument } from '../store/delivery.js';

export const DELIVERY_NOT_FOUND = 'Webhook delivery not found.';

/** One delivery of the tenant's subscription, with its body; NOT_FOUND for anyone else's. */
export class GetDelivery {
  constructor(private readonly deliveries: DeliveryRepository) {}

  async execute(
    tenantId: string,
    subscriptionId: number,
    deliveryId: string,
  ): Promise<DeliveryDocument> {
    const delivery = await this.deliveries.find(tenantId, subscriptionId, deliveryId);
    if (!delivery) throw notFound(DELIVERY_NOT_FOUND);
    return delivery;
  }
}
