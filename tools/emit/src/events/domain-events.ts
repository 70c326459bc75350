import {
  DOMAIN_EVENT_NAMES,
  DOMAIN_STREAM,
  WEBHOOK_EVENT_CATALOG,
  SPECIFICATION_WEBHOOK_EVENT_NAMES,
  domainEvent,
  type DomainEventName,
} from '@inventory/events';
import type { DomainEventPayload } from '@inventory/contracts/events/v1/domain_events.js';
import { z, type ZodType } from 'zod';
import { emittable, type EmittableEvent } from '../emittable-event.js';

/** `--data` is any JSON object; it becomes the outbound delivery's `data` as given. */
const jsonObject = z
  .record(z.unknown())
  .transform((data): DomainEventPayload => ({ data_json: JSON.stringify(data) }));

/**
 * The specification's webhook events the DOMAIN stream carries: nine of the ten. The tenth,
 * `product.created`, is one fact with the product record, so it is emitted once, as
 * `catalog.product.created` (catalog.ts; ADR 0416).
 */
const EMITTED_DOMAIN_EVENT_NAMES = SPECIFICATION_WEBHOOK_EVENT_NAMES.filter(
  (name): name is (typeof SPECIFICATION_WEBHOOK_EVENT_NAMES)[number] & DomainEventName =>
    (DOMAIN_EVENT_NAMES as readonly string[]).includes(name),
);

export const DOMAIN_EVENTS: EmittableEvent[] = EMITTED_DOMAIN_EVENT_NAMES.map((name) =>
  emittable<DomainEventPayload>({
    name,
    description: `${WEBHOOK_EVENT_CATALOG[name].firesWhen} (outbound webhook catalog event)`,
    type: domainEvent(name),
    stream: DOMAIN_STREAM,
    // The schema's input is the JSON object, its output the payload; the registry types by output.
    data: jsonObject as unknown as ZodType<DomainEventPayload>,
  }),
);
