import { randomUUID } from 'node:crypto';
import type { EventPublisher, EventType, Logger, Outbox, OutboxEntry } from '@inventory/platform';

/** An entry of any event type, as `Outbox.withEvents` takes them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- payload types differ per entry
export type AnyOutboxEntry = OutboxEntry<any>;

/**
 * Events that make every gateway replica drop something it caches (token records, users:
 * ADR 0104, ADR 0109). The event is recorded in the outbox together with the change (the
 * durable path), then published straight away with the same id (JetStream stores it once) and
 * the server's ack awaited: by the time the caller gets its answer, every gateway subscribed to
 * the subject has been sent it. Without a publisher (the admin CLI when it has no NATS) the
 * running service's outbox relay publishes it.
 */
export class GatewayEvents {
  constructor(
    private readonly outbox: Outbox,
    private readonly publisher: Pick<EventPublisher, 'publish'> | undefined,
    private readonly logger: Logger,
    /** Whether a failed eager publish fails the call (the admin CLI) or only logs (the service). */
    private readonly eagerPublishRequired = false,
  ) {}

  protected async notify<P, R>(
    type: EventType<P>,
    tenantId: string,
    payload: P,
    change: () => Promise<R>,
    /** Other events recorded with the change (an alert, an activity row): all or none. */
    alongside: readonly AnyOutboxEntry[] = [],
  ): Promise<R> {
    const event = { id: randomUUID(), tenantId, payload };
    const result = await this.outbox.withEvents([{ type, event }, ...alongside], change);
    try {
      await this.publisher?.publish(type, event);
    } catch (error) {
      if (this.eagerPublishRequired) throw new GatewaysNotNotified(error);
      this.logger.warn(
        { err: error, subject: type.subject },
        'eager gateway event publish failed; the outbox relay will retry',
      );
    }
    return result;
  }
}

/** The change is made and its event is in the outbox, but the gateways were not told at once. */
export class GatewaysNotNotified extends Error {
  constructor(cause: unknown) {
    super(
      `the change is made, but the gateways could not be told at once (${
        cause instanceof Error ? cause.message : String(cause)
      }); the identity service's outbox relay publishes it`,
      { cause },
    );
    this.name = 'GatewaysNotNotified';
  }
}
