import {
  WEBHOOK_SUBSCRIPTIONS_DEFAULT_PER_PAGE,
  WEBHOOK_SUBSCRIPTIONS_MAX_PER_PAGE,
} from '@inventory/rules';
import { field } from '../../http/body-fields.js';
import { page } from '../../http/page-fields.js';
import { param } from '../../http/param-fields.js';
import { body } from '../../http/route-input.js';
import type { InputField } from '../../http/input-field.js';

/** More than this many entries in `events` is refused before anything else looks at them. */
export const MAX_EVENTS_ITEMS = 100;

/** `{id}` is an integer id; anything else cannot name a subscription. */
export const SUBSCRIPTION = { id: param.id('Webhook subscription not found.') };
export const DELIVERY = {
  ...SUBSCRIPTION,
  delivery_id: param.uuid('Webhook delivery not found.'),
};

/**
 * JSON types the proto cannot express. Their errors travel as `input_violations` so the service
 * reports them with its own rules (known events, URL safety) in one 422 (`deferErrors`).
 */
export const SUBSCRIPTION_BODY = body({
  url: field.string({ nulls: 'invalid' }),
  events: field.stringArray({ maxItems: MAX_EVENTS_ITEMS, nulls: 'invalid', itemErrors: 'first' }),
  description: field.nullableString(),
  is_active: field.boolean(),
  filter: contentFilter(),
});

/**
 * A content filter (ADR 0418): an object, or null for every event. Only its JSON type is
 * checked here; the service owns the language and names what is wrong in it.
 */
function contentFilter(): InputField<Record<string, unknown> | null | undefined> {
  const holder = field.object();
  return {
    schema: {
      type: ['object', 'null'],
      description:
        "Send only events whose data matches: a subset of MongoDB's query language ($eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists, $startsWith, $endsWith, $contains, $not, $and, $or) over the event's data; null for every event",
      example: { warehouse_id: 3, sku: { $startsWith: 'ACME-' } },
    },
    read: (value, name, errors) => (value === null ? null : holder.read(value, name, errors)),
  };
}

/** The filter as the service takes it: JSON text when given (`"null"` removes it). */
export const filterJsonOf = (filter: Record<string, unknown> | null | undefined) =>
  filter === undefined ? undefined : JSON.stringify(filter);

/** A recover: the failed deliveries created since this time are sent again (ADR 0415). */
export const RECOVER_BODY = body({ since: field.date() });
export const RECOVER_JOB = {
  ...SUBSCRIPTION,
  job_id: param.uuid('Recover job not found.'),
};

/** `page` and `per_page` (spec: 1-based, default 10). */
export const PAGING = {
  page: page.positive({ fallback: 1, max: 1_000_000_000 }),
  per_page: page.positive({
    fallback: WEBHOOK_SUBSCRIPTIONS_DEFAULT_PER_PAGE,
    max: WEBHOOK_SUBSCRIPTIONS_MAX_PER_PAGE,
  }),
};

function shortString(): InputField<string | undefined> {
  return {
    schema: { type: 'string', maxLength: 100 },
    read(value, name, errors) {
      if (value === undefined || value === '') return undefined;
      if (typeof value === 'string' && value.length <= 100) return value;
      (errors[name] ??= []).push(`The ${name} must be a string of at most 100 characters.`);
      return undefined;
    },
  };
}

/** The delivery log's filters: `status` and `event`. */
export const DELIVERY_FILTERS = { status: shortString(), event: shortString() };
