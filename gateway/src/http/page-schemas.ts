import type { JsonSchema } from './input-field.js';

/**
 * The documented shapes of the specification's two pagination envelopes (`pagination.ts` builds
 * them), once: every list route's response schema wraps its row in one of these. Every field is
 * always present (null when empty), so each is `required`: clients typed from the document need
 * not test for a missing one.
 */
const integer = { type: 'integer' };
const nullableInteger = { type: ['integer', 'null'] };
const url = { type: 'string' };
const nullableUrl = { type: ['string', 'null'] };

const pageLink = {
  type: 'object',
  required: ['url', 'label', 'active'],
  properties: {
    url: nullableUrl,
    label: { type: 'string', description: '"« Previous", a page number, "..." or "Next »"' },
    active: { type: 'boolean' },
  },
};

const meta = {
  current_page: integer,
  last_page: integer,
  per_page: integer,
  total: integer,
  from: nullableInteger,
  to: nullableInteger,
};

/** Envelope 1 (general lists): flat, Laravel's paginator; `extra` adds top-level fields. */
export function flatEnvelopeSchema(item: JsonSchema, extra: Record<string, JsonSchema> = {}) {
  const properties = {
    data: { type: 'array', items: item },
    ...meta,
    first_page_url: url,
    last_page_url: url,
    next_page_url: nullableUrl,
    prev_page_url: nullableUrl,
    path: url,
    links: { type: 'array', items: pageLink },
    ...extra,
  };
  return { type: 'object', required: Object.keys(properties), properties };
}

/** Envelope 2 (parcel-tracking lists): `data`, `links`, `meta`. */
export function linksMetaEnvelopeSchema(item: JsonSchema) {
  const links = { first: url, last: url, prev: nullableUrl, next: nullableUrl };
  const pageMeta = { ...meta, path: url };
  return {
    type: 'object',
    required: ['data', 'links', 'meta'],
    properties: {
      data: { type: 'array', items: item },
      links: { type: 'object', required: Object.keys(links), properties: links },
      meta: { type: 'object', required: Object.keys(pageMeta), properties: pageMeta },
    },
  };
}
