import type { EmittableEvent } from '../emittable-event.js';
import { CATALOG_EVENTS } from './catalog.js';

/** Every event the emit command knows, one spread per area's file. */
export const EMITTABLE_EVENTS: EmittableEvent[] = [...CATALOG_EVENTS];
