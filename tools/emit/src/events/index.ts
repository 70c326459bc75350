import type { EmittableEvent } from '../emittable-event.js';
import { DOMAIN_EVENTS } from './domain-events.js';

/** Every event the emit command knows, one spread per area's file. */
export const EMITTABLE_EVENTS: EmittableEvent[] = [...DOMAIN_EVENTS];
