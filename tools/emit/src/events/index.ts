import type { EmittableEvent } from '../emittable-event.js';

/** Every event the emit command knows, one spread per area's file. */
export const EMITTABLE_EVENTS: EmittableEvent[] = [];
