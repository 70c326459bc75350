import {
  webhookEventOfSubject,
  type DomainEventPayload,
  type WebhookEventName,
} from '@inventory/events';
import type { DomainEvent } from '@inventory/platform';
import { parseEventData } from './delivery-envelope.js';

/**
 * One fact as the fan-out delivers it, whichever stream it came from: the webhook event's name,
 * its `data` (undefined when the producer's was not a JSON object) and the bus event's identity.
 */
export interface WebhookEvent {
  /** The bus event's id: with a subscription's id, it makes the delivery's id and dedupe key. */
  id: string;
  tenantId: string;
  occurredAt: Date;
  /** The bus subject it came on (for logs). */
  subject: string;
  /** Its position in its stream: the delivery's `resource_sequence` (ADR 0414). */
  streamSequence?: number | undefined;
  name: WebhookEventName;
  data: Record<string, unknown> | undefined;
}

/** A `domain.<name>` event; undefined when its subject names no DOMAIN-stream webhook event. */
export function webhookEventOfDomainEvent(
  event: DomainEvent<DomainEventPayload>,
): WebhookEvent | undefined {
  const name = webhookEventOfSubject(event.subject);
  if (!name) return undefined;
  return {
    id: event.id,
    tenantId: event.tenantId,
    occurredAt: event.occurredAt,
    subject: event.subject,
    streamSequence: event.streamSequence,
    name,
    data: parseEventData(event.payload.data_json),
  };
}
