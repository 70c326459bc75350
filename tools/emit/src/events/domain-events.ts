import {
  DOMAIN_STREAM,
  WEBHOOK_EVENT_CATALOG,
  SPECIFICATION_WEBHOOK_EVENT_NAMES,
  domainEvent,
} from '@inventory/events';
import type { DomainEventPayload } from '@inventory/contracts/events/v1/domain_events.js';
import { z, type ZodType } from 'zod';
import { emittable, type EmittableEvent } from '../emittable-event.js';

/** `--data` is any JSON object; it becomes the outbound delivery's `data` as given. */
const jsonObject = z
  .record(z.unknown())
  .transform((data): DomainEventPayload => ({ data_json: JSON.stringify(data) }));

/** The ten outbound-webhook catalog events (libs/events WEBHOOK_EVENT_CATALOG). */
export const DOMAIN_EVENTS: EmittableEvent[] = SPECIFICATION_WEBHOOK_EVENT_NAMES.map((name) =>
  emittable<DomainEventPayload>({
    name,
    description: `${WEBHOOK_EVENT_CATALOG[name].firesWhen} (outbound webhook catalog event)`,
    type: domainEvent(name),
    stream: DOMAIN_STREAM,
    // The schema's input is the JSON object, its output the payload; the registry types by output.
    data: jsonObject as unknown as ZodType<DomainEventPayload>,
  }),
);
