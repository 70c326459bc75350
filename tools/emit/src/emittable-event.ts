import type { EventType, StreamSpec } from '@inventory/platform';
import type { ZodType } from 'zod';

/**
 * One event `npm run emit -- <name> --data '<json>'` can publish: its command-line name, the
 * bus event it becomes, the stream that must hold it, and the zod schema its `--data` must pass
 * (the schema's output is the proto payload). Each area declares its events in one file under
 * `events/` and `events/index.ts` lists them all.
 */
export interface EmittableEvent<T = unknown> {
  /** As typed on the command line, e.g. `shipment.tracking_assigned`. */
  name: string;
  /** One line for `--help`. */
  description: string;
  type: EventType<T>;
  stream: StreamSpec;
  data: ZodType<T>;
}

/** Keeps each declaration's payload type checked against its event type. */
export function emittable<T>(event: EmittableEvent<T>): EmittableEvent<unknown> {
  return event as EmittableEvent<unknown>;
}
