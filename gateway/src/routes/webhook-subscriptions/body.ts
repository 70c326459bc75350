import type { FieldViolation } from '@inventory/contracts/common/v1/errors.js';

/** More than this many entries in `events` is refused before anything else looks at them. */
export const MAX_EVENTS_ITEMS = 100;

export interface SubscriptionBody {
  url?: string;
  events?: string[];
  description?: string | null;
  isActive?: boolean;
  inputViolations: FieldViolation[];
}

/**
 * The JSON object comes from the gateway's one body reader (`jsonObjectBody`: 415 for another
 * content type, 422 for a body that is not an object). JSON type checks the proto cannot express; they travel as `input_violations` so the service
 * reports them with its own rules in one 422. Unknown keys are ignored.
 */
export function readSubscriptionBody(body: Record<string, unknown>): SubscriptionBody {
  const violations: FieldViolation[] = [];
  const fail = (field: string, description: string) => violations.push({ field, description });
  const out: SubscriptionBody = { inputViolations: violations };

  if (body.url !== undefined) {
    if (typeof body.url === 'string') out.url = body.url;
    else fail('url', 'The url field must be a string.');
  }
  if (body.events !== undefined) {
    if (!Array.isArray(body.events)) fail('events', 'The events field must be an array.');
    else if (body.events.length > MAX_EVENTS_ITEMS)
      fail('events', `The events field may not have more than ${MAX_EVENTS_ITEMS} items.`);
    else {
      const bad = body.events.findIndex((event) => typeof event !== 'string');
      if (bad >= 0) fail(`events`, `The events.${bad} field must be a string.`);
      else out.events = body.events as string[];
    }
  }
  if (body.description !== undefined) {
    if (body.description === null || typeof body.description === 'string')
      out.description = body.description;
    else fail('description', 'The description field must be a string.');
  }
  if (body.is_active !== undefined) {
    if (typeof body.is_active === 'boolean') out.isActive = body.is_active;
    else fail('is_active', 'The is active field must be true or false.');
  }
  return out;
}
