import { randomUUID } from 'node:crypto';
import { webhookEventOfSubject, type DomainEventPayload } from '@inventory/events';
import type { DomainEvent, Logger } from '@inventory/platform';
import { parseEventData, serialiseEnvelope } from '../domain/delivery-envelope.js';
import type { DeliveryStore } from '../store/delivery-store.js';
import type { SubscriptionStore } from '../store/subscription-store.js';

/**
 * One catalog event → one scheduled delivery per active subscription of its tenant that
 * lists it. The (event id, subscription) pair is unique in the store, so a redelivered or
 * replayed event schedules nothing new; the attempt itself is the worker's.
 */
export class FanOutEvent {
  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly deliveries: DeliveryStore,
    private readonly logger: Logger,
    private readonly wake: () => void,
  ) {}

  async execute(event: DomainEvent<DomainEventPayload>): Promise<number> {
    const name = webhookEventOfSubject(event.subject);
    if (!name) return 0;
    const data = parseEventData(event.payload.data_json);
    if (!data) {
      this.logger.warn(
        { event_id: event.id, subject: event.subject },
        'event data is not a JSON object; sent as {}',
      );
    }
    let scheduled = 0;
    for (const subscription of await this.subscriptions.activeFor(event.tenantId, name)) {
      const deliveryId = randomUUID();
      const inserted = await this.deliveries.insertIfNew({
        delivery_id: deliveryId,
        tenant_id: event.tenantId,
        subscription_id: subscription.id,
        event: name,
        dedupe_key: `${event.id}:${subscription.id}`,
        body: serialiseEnvelope({
          event: name,
          deliveryId,
          occurredAt: event.occurredAt,
          data: data ?? {},
        }),
        occurred_at: event.occurredAt,
      });
      if (inserted) scheduled++;
    }
    if (scheduled > 0) this.wake();
    return scheduled;
  }
}
