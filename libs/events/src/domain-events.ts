import {
  DomainEventPayload,
  WebhookSubscriptionDeactivated,
} from '@inventory/contracts/events/v1/domain_events.js';
import { defineEvent, type EventType, type NewEvent, type StreamSpec } from '@inventory/platform';
import { isWebhookEventName, type WebhookEventName } from './webhook-catalog.js';

/** The stream of the ten outbound-webhook catalog events (proto/events/v1/domain_events.proto). */
export const DOMAIN_STREAM: StreamSpec = { name: 'DOMAIN', subjects: ['domain.>'] };
const DOMAIN_SUBJECT_PREFIX = 'domain.';

/** The bus event of one catalog event: subject `domain.<name>`. */
export function domainEvent(name: WebhookEventName): EventType<DomainEventPayload> {
  return defineEvent(`${DOMAIN_SUBJECT_PREFIX}${name}`, DomainEventPayload);
}

/** Every catalog event at once (`domain.>`), for the outbound-delivery fan-out consumer. */
export const anyDomainEvent = defineEvent(`${DOMAIN_SUBJECT_PREFIX}>`, DomainEventPayload);

/** The catalog name a `domain.<name>` subject carries; undefined when it is not one of the ten. */
export function webhookEventOfSubject(subject: string): WebhookEventName | undefined {
  if (!subject.startsWith(DOMAIN_SUBJECT_PREFIX)) return undefined;
  const name = subject.slice(DOMAIN_SUBJECT_PREFIX.length);
  return isWebhookEventName(name) ? name : undefined;
}

export interface DomainEventInput {
  tenantId: string;
  name: WebhookEventName;
  /** The delivery's `data`: a JSON object. */
  data: Record<string, unknown>;
  id?: string;
  occurredAt?: Date;
}

/** The outbox entry (or publish argument) for one catalog event. */
export function domainEventEntry(input: DomainEventInput): {
  type: EventType<DomainEventPayload>;
  event: NewEvent<DomainEventPayload>;
} {
  return {
    type: domainEvent(input.name),
    event: {
      tenantId: input.tenantId,
      ...(input.id === undefined ? {} : { id: input.id }),
      ...(input.occurredAt === undefined ? {} : { occurredAt: input.occurredAt }),
      payload: { data_json: JSON.stringify(input.data) },
    },
  };
}

/** Stream of outbound-delivery's own events. */
export const OUTBOUND_STREAM: StreamSpec = { name: 'OUTBOUND', subjects: ['outbound.>'] };

/** A subscription was switched off by the platform (HTTP 410, or 25 consecutive failures). */
export const webhookSubscriptionDeactivated = defineEvent(
  'outbound.webhook_subscription.deactivated',
  WebhookSubscriptionDeactivated,
);

export type { DomainEventPayload, WebhookSubscriptionDeactivated };
