import {
  DomainEventPayload,
  WebhookSubscriptionDeactivated,
} from '@inventory/contracts/events/v1/domain_events.js';
import { defineEvent, type EventType, type NewEvent, type StreamSpec } from '@inventory/platform';
import type { WebhookEventName } from './webhook-catalog.js';

/**
 * The webhook events the DOMAIN stream carries, one subject `domain.<name>` each: the catalog's
 * events but `product.created`, whose one fact is the catalog record `catalog.product.created`
 * (stream CATALOG) that outbound-delivery maps to it (ADR 0416). A fact is published once.
 */
export const DOMAIN_EVENT_NAMES = [
  'sales_order.created',
  'sales_order.shipped',
  'sales_order.cancelled',
  'purchase_order.created',
  'purchase_order.approved',
  'purchase_order.submitted',
  'purchase_order.received',
  'inventory.adjusted',
  'customer.created',
  'webhook_subscription.deactivated',
] as const satisfies ReadonlyArray<WebhookEventName>;

/** A webhook event a producer publishes on the DOMAIN stream. */
export type DomainEventName = (typeof DOMAIN_EVENT_NAMES)[number];

export function isDomainEventName(name: string): name is DomainEventName {
  return (DOMAIN_EVENT_NAMES as readonly string[]).includes(name);
}

/** The stream of the webhook events in DOMAIN_EVENT_NAMES (proto/events/v1/domain_events.proto). */
export const DOMAIN_STREAM: StreamSpec = { name: 'DOMAIN', subjects: ['domain.>'] };
const DOMAIN_SUBJECT_PREFIX = 'domain.';

/** The bus event of one DOMAIN-stream webhook event: subject `domain.<name>`. */
export function domainEvent(name: DomainEventName): EventType<DomainEventPayload> {
  return defineEvent(`${DOMAIN_SUBJECT_PREFIX}${name}`, DomainEventPayload);
}

/** Every DOMAIN-stream event at once (`domain.>`), for the outbound-delivery fan-out consumer. */
export const anyDomainEvent = defineEvent(`${DOMAIN_SUBJECT_PREFIX}>`, DomainEventPayload);

/**
 * The webhook event a `domain.<name>` subject carries; undefined when it is not one of
 * DOMAIN_EVENT_NAMES (so a stray `domain.product.created` is never delivered).
 */
export function webhookEventOfSubject(subject: string): DomainEventName | undefined {
  if (!subject.startsWith(DOMAIN_SUBJECT_PREFIX)) return undefined;
  const name = subject.slice(DOMAIN_SUBJECT_PREFIX.length);
  return isDomainEventName(name) ? name : undefined;
}

export interface DomainEventInput {
  tenantId: string;
  name: DomainEventName;
  /** The delivery's `data`: a JSON object. */
  data: Record<string, unknown>;
  id?: string;
  occurredAt?: Date;
}

/** The outbox entry (or publish argument) for one DOMAIN-stream webhook event. */
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
