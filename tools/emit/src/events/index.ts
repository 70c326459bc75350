import type { EmittableEvent } from '../emittable-event.js';
import { CATALOG_EVENTS } from './catalog.js';
import { DOMAIN_EVENTS } from './domain-events.js';
import { SHIPMENT_EVENTS } from './shipments.js';

/** Every event the emit command knows, one spread per area's file. */
export const EMITTABLE_EVENTS: EmittableEvent[] = [
  ...SHIPMENT_EVENTS,
  ...DOMAIN_EVENTS,
  ...CATALOG_EVENTS,
];
