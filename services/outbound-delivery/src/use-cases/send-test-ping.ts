import { randomUUID } from 'node:crypto';
import { failedPrecondition, notFound } from '@inventory/platform';
import { serialiseEnvelope } from '../domain/delivery-envelope.js';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { DeliveryDocument } from '../store/delivery.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import { SUBSCRIPTION_NOT_FOUND } from './get-subscription.js';

export const PING_EVENT = 'ping';

export const INACTIVE = () =>
  failedPrecondition(
    'subscription_inactive',
    'The webhook subscription is inactive; re-enable it with is_active: true first.',
  );

/** Schedules a signed `ping` delivery now; it follows the rules of any other delivery. */
export class SendTestPing {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly wake: () => void,
  ) {}

  async execute(tenantId: string, subscriptionId: number): Promise<DeliveryDocument> {
    const subscription = await this.subscriptions.find(tenantId, subscriptionId);
    if (!subscription) throw notFound(SUBSCRIPTION_NOT_FOUND);
    if (!subscription.is_active) throw INACTIVE();
    const deliveryId = randomUUID();
    const occurredAt = new Date();
    await this.deliveries.insertIfNew({
      delivery_id: deliveryId,
      tenant_id: tenantId,
      subscription_id: subscriptionId,
      event: PING_EVENT,
      dedupe_key: deliveryId,
      body: serialiseEnvelope({
        event: PING_EVENT,
        deliveryId,
        occurredAt,
        data: { subscription_id: subscriptionId, message: 'This is a test delivery.' },
      }),
      occurred_at: occurredAt,
    });
    this.wake();
    return (await this.deliveries.find(tenantId, subscriptionId, deliveryId))!;
  }
}
