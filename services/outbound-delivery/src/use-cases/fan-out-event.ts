import { randomUUID } from 'node:crypto';
import { webhookEventOfSubject, type DomainEventPayload } from '@inventory/events';
import type { DomainEvent, Logger } from '@inventory/platform';
import { parseEventData, serialiseEnvelope } from '../domain/delivery-envelope.js';
import type { DeliveryStore } from '../store/delivery-store.js';
import type { DeliveryDocument, NewDelivery } from '../store/delivery.js';
import type { SubscriptionDocument, SubscriptionStore } from '../store/subscription-store.js';

/** The delivery worker as fan-out sees it. */
export interface LeasedRunner {
  readonly leaseMs: number;
  reserve(wanted: number): number;
  runLeased(leased: DeliveryDocument[], promised: number): void;
  wake(): void;
}

/**
 * Catalog events → one scheduled delivery per active subscription of the event's tenant that
 * lists it. The (event id, subscription) pair is unique in the store, so a redelivered or
 * replayed event schedules nothing new; the attempt itself is the worker's. A batch of events
 * reads the subscriptions once per (tenant, event name) and inserts every delivery in one write
 * (ADR 0406).
 */
export class FanOutEvent {
  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly deliveries: DeliveryStore,
    private readonly logger: Logger,
    private readonly worker: LeasedRunner,
  ) {}

  async execute(event: DomainEvent<DomainEventPayload>): Promise<number> {
    return this.executeAll([event]);
  }

  /** Returns how many deliveries were newly scheduled. */
  async executeAll(events: Array<DomainEvent<DomainEventPayload>>): Promise<number> {
    const catalog = events.flatMap((event) => {
      const name = webhookEventOfSubject(event.subject);
      return name ? [{ event, name }] : [];
    });
    if (catalog.length === 0) return 0;
    const groups = new Map<string, { tenantId: string; name: string }>();
    for (const { event, name } of catalog)
      groups.set(`${event.tenantId}\u0000${name}`, { tenantId: event.tenantId, name });
    const subscribers = new Map<string, SubscriptionDocument[]>();
    await Promise.all(
      [...groups].map(async ([key, { tenantId, name }]) =>
        subscribers.set(key, await this.subscriptions.activeFor(tenantId, name)),
      ),
    );

    const scheduled: NewDelivery[] = [];
    for (const { event, name } of catalog) {
      const targets = subscribers.get(`${event.tenantId}\u0000${name}`) ?? [];
      if (targets.length === 0) continue;
      const data = parseEventData(event.payload.data_json);
      if (!data) {
        this.logger.warn(
          { event_id: event.id, subject: event.subject },
          'event data is not a JSON object; sent as {}',
        );
      }
      for (const subscription of targets) {
        const deliveryId = randomUUID();
        scheduled.push({
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
      }
    }
    // As many as this replica's worker has room for are stored leased to it and attempted
    // straight away; the rest wait in the schedule for any replica's worker.
    const promised = this.worker.reserve(scheduled.length);
    let inserted: DeliveryDocument[];
    try {
      inserted = await this.deliveries.insertNew(scheduled, {
        count: promised,
        ms: this.worker.leaseMs,
      });
    } catch (error) {
      this.worker.runLeased([], promised);
      throw error;
    }
    const leased = inserted.filter((delivery) => delivery.lease_token !== undefined);
    this.worker.runLeased(leased, promised);
    if (leased.length < inserted.length) this.worker.wake();
    return inserted.length;
  }
}
