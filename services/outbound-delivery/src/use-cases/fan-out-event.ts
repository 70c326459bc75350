import { randomUUID } from 'node:crypto';
import { RESOURCE_SEQUENCE_FIELD } from '@inventory/events';
import type { Logger } from '@inventory/platform';
import { passesContentFilter } from '../domain/content-filter.js';
import { deliveryIdOf } from '../domain/delivery-id.js';
import { serialiseEnvelope } from '../domain/delivery-envelope.js';
import type { WebhookEvent } from '../domain/webhook-event.js';
import { ownerMayReceive } from '../domain/subscription-owner.js';
import type { AttemptSlots } from '../delivery/attempt-slots.js';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import { heldDelivery, pendingDelivery, type DeliveryDocument } from '../store/delivery.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import type { SubscriptionDocument } from '../store/subscription.js';
import type { AttemptDelivery, FirstAttempt } from './attempt-delivery.js';

/** First attempts remembered while their rows are not stored; far above one replica's batches. */
const MAX_UNSTORED = 20_000;

/**
 * Webhook events (a `domain.<name>` event, or a record event mapped to one: ADR 0416) → one
 * delivery per active subscription of the event's tenant that lists it, its first attempt made
 * straight from the consumed batch (ADR 0408). JetStream is the durable schedule of a first
 * attempt: the events are acked only once their deliveries are stored, and a delivery's id comes
 * from (event id, subscription id), so an event redelivered after a crash
 * mid-attempt repeats it with the same id and body (at-least-once), while a redelivered event
 * whose deliveries are stored sends nothing (the unique `<event id>:<subscription id>` key).
 * The rows are written once, with their outcome, in one insert per batch; retries, pings and
 * redeliveries go through the schedule in MongoDB (the worker).
 */
export class FanOutEvent {
  /** Events being handled by a batch of this replica: a copy in another batch waits for it. */
  private readonly inProgress = new Map<string, Promise<void>>();
  /**
   * First attempts made and not yet stored, by dedupe key: a batch whose insert failed comes back
   * from JetStream and stores these instead of sending them again. Bounded (the oldest go first),
   * and per replica: only a replica that dies between an attempt and its row repeats one.
   */
  private readonly unstored = new Map<string, FirstAttempt>();

  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly attempts: AttemptDelivery,
    private readonly slots: AttemptSlots,
    private readonly leaseMs: number,
    private readonly logger: Logger,
    /** Told each event withheld from a subscription whose owner lost its permission. */
    private readonly withheld?: (event: string) => void,
    /** Told which subscriptions had deliveries held while they were resuming (ADR 0412). */
    private readonly heldWhileResuming?: (tenantId: string, subscriptionId: number) => void,
  ) {}

  async execute(event: WebhookEvent): Promise<number> {
    return this.executeAll([event]);
  }

  /** Returns how many deliveries were stored. */
  async executeAll(events: WebhookEvent[]): Promise<number> {
    const copies: Array<Promise<void>> = [];
    const mine = new Map<string, WebhookEvent>();
    for (const event of events) {
      if (mine.has(event.id)) continue;
      const elsewhere = this.inProgress.get(event.id);
      if (elsewhere) copies.push(elsewhere);
      else mine.set(event.id, event);
    }
    const own = this.deliver([...mine.values()]);
    // What a batch holding a copy waits for. It fails when this batch fails: a copy JetStream
    // redelivered (an ack wait passed while this batch held the event) is the same message as
    // the original, so acking the copy would ack the original too, and lose the event.
    const outcome = own.then(() => undefined);
    outcome.catch(() => undefined);
    for (const id of mine.keys()) this.inProgress.set(id, outcome);
    let stored: number;
    try {
      stored = await own;
    } finally {
      for (const id of mine.keys()) this.inProgress.delete(id);
    }
    // A copy is acked only once the batch holding the original has stored it.
    await Promise.all(copies);
    return stored;
  }

  private remember(entry: FirstAttempt): void {
    this.unstored.set(entry.row.dedupe_key, entry);
    if (this.unstored.size > MAX_UNSTORED) this.unstored.delete(this.unstored.keys().next().value!);
  }

  /**
   * The subscriptions whose owner may read `name` (ADR 0409). The others are withheld: no
   * delivery, a counted and logged refusal, and the subscription is left as it is, so it sends
   * again once the permission is back.
   */
  private permitted(event: WebhookEvent, targets: SubscriptionDocument[]): SubscriptionDocument[] {
    const { name } = event;
    const permitted = targets.filter((target) => ownerMayReceive(target.owner, name));
    for (const target of targets) {
      if (permitted.includes(target)) continue;
      this.withheld?.(name);
      this.logger.warn(
        {
          event_id: event.id,
          event: name,
          subscription_id: target.id,
          owner_user_id: target.owner?.user_id,
          tenant_id: event.tenantId,
        },
        "event withheld: the subscription's owner no longer holds its permission",
      );
    }
    return permitted;
  }

  private async deliver(catalog: WebhookEvent[]): Promise<number> {
    if (catalog.length === 0) return 0;
    const groups = new Map<string, { tenantId: string; name: string }>();
    for (const { tenantId, name } of catalog)
      groups.set(`${tenantId}\u0000${name}`, { tenantId, name });
    const subscribers = new Map<string, SubscriptionDocument[]>();
    await Promise.all(
      [...groups].map(async ([key, { tenantId, name }]) =>
        subscribers.set(key, await this.subscriptions.activeFor(tenantId, name)),
      ),
    );

    const candidates: Array<{ delivery: DeliveryDocument; subscription: SubscriptionDocument }> =
      [];
    const now = new Date();
    for (const event of catalog) {
      const { name } = event;
      const parsed = event.data;
      // A subscription's content filter picks its events before anything is stored or counted
      // toward the cap (ADR 0418).
      const targets = this.permitted(
        event,
        subscribers.get(`${event.tenantId}\u0000${name}`) ?? [],
      ).filter((subscription) => passesContentFilter(subscription.filter_json, parsed));
      if (targets.length === 0) continue;
      // Its place in its stream orders the events of each resource (ADR 0414).
      const data =
        parsed && event.streamSequence !== undefined
          ? { ...parsed, [RESOURCE_SEQUENCE_FIELD]: event.streamSequence }
          : parsed;
      if (!data) {
        this.logger.warn(
          { event_id: event.id, subject: event.subject },
          'event data is not a JSON object; sent as {}',
        );
      }
      for (const subscription of targets) {
        const deliveryId = deliveryIdOf(event.id, subscription.id);
        // Paused, or resuming (new events queue behind the held ones): stored held (ADR 0412).
        const holds = Boolean(subscription.paused_at) || subscription.resuming === true;
        candidates.push({
          subscription,
          delivery: (holds ? heldDelivery : pendingDelivery)(
            {
              delivery_id: deliveryId,
              tenant_id: event.tenantId,
              subscription_id: subscription.id,
              event: name,
              dedupe_key: `${event.id}:${subscription.id}`,
              body: serialiseEnvelope({
                event: name,
                deliveryId,
                occurredAt: event.occurredAt,
                data:
                  data ??
                  (event.streamSequence === undefined
                    ? {}
                    : { [RESOURCE_SEQUENCE_FIELD]: event.streamSequence }),
              }),
              occurred_at: event.occurredAt,
            },
            now,
          ),
        });
      }
    }
    if (candidates.length === 0) return 0;

    // A redelivered event whose deliveries are stored (acked too late, or not at all, before a
    // crash) sends nothing again.
    const recorded = await this.deliveries.recordedKeys(candidates.map(({ delivery }) => delivery));
    const unrecorded = candidates.filter(({ delivery }) => !recorded.has(delivery.dedupe_key));
    const held = unrecorded.filter(({ delivery }) => delivery.status === 'held');
    const fresh = unrecorded.filter(({ delivery }) => delivery.status !== 'held');
    const heldStored = await this.deliveries.insertRecorded(held.map(({ delivery }) => delivery));
    for (const { subscription } of held)
      if (subscription.resuming) this.heldWhileResuming?.(subscription.tenant_id, subscription.id);
    // Attempts this replica made whose rows could not be stored (MongoDB failed after the
    // receiver answered): stored now as they were, never sent again (ADR 0741).
    const remembered = fresh.flatMap(({ delivery }) => {
      const entry = this.unstored.get(delivery.dedupe_key);
      return entry ? [entry] : [];
    });
    const toAttempt = fresh.filter(({ delivery }) => !this.unstored.has(delivery.dedupe_key));
    const admitted = await this.attempts.admit(
      toAttempt.map(({ delivery }) => delivery),
      toAttempt.map(({ subscription }) => subscription),
    );
    const made = await Promise.all(
      toAttempt.map(({ delivery, subscription }, index) =>
        this.slots.run(() => this.attempts.firstAttempt(delivery, subscription, admitted[index]!)),
      ),
    );
    for (const entry of made) this.remember(entry);
    const attempted = [...remembered, ...made];
    // Rows whose subscription change must come first are stored pending and leased to this
    // replica, then settled; a crash in between leaves the lease to expire (the worker repeats).
    const lease = { lease_until: new Date(Date.now() + this.leaseMs), lease_token: randomUUID() };
    for (const entry of attempted) if (entry.settle) entry.row = { ...entry.row, ...lease };
    const stored = new Set(
      (await this.deliveries.insertRecorded(attempted.map(({ row }) => row))).map(
        (row) => row.dedupe_key,
      ),
    );
    // Stored, or stored by another replica: either way no longer this replica's to keep.
    for (const { row } of attempted) this.unstored.delete(row.dedupe_key);
    const settles: Array<Promise<void>> = [];
    for (const { row, outcome, settle } of attempted) {
      // Not stored: another replica handled the same event at the same time and stored it.
      if (!stored.has(row.dedupe_key)) continue;
      if (outcome) this.attempts.recorded(outcome);
      if (settle) settles.push(settle());
    }
    await Promise.all(settles);
    return stored.size + heldStored.length;
  }
}
