import { flatEnvelopeSchema } from '../../http/page-schemas.js';
import { dataOf, row } from '../../http/row-schema.js';

/** What the webhook subscription routes answer (present.ts builds these rows). */
export const SUBSCRIPTION_ROW = row({
  id: 'integer',
  url: 'string',
  events: 'string[]',
  description: 'string?',
  is_active: 'boolean',
  deactivated_reason: {
    type: ['string', 'null'],
    enum: ['gone', 'consecutive_failures', null],
    description:
      'Why the platform switched it off: the receiver answered 410 (gone), or 25 deliveries failed in a row; null when active or switched off by a user',
  },
  consecutive_failures: {
    type: 'integer',
    description: 'Deliveries failed in a row since the last success (25 switch it off)',
  },
  paused_at: {
    type: ['string', 'null'],
    format: 'date-time',
    description:
      'When it was paused by hand; null when not paused. Deliveries are held (status held) meanwhile',
  },
  pause_expires_at: {
    type: ['string', 'null'],
    format: 'date-time',
    description:
      'When the pause ends by itself and the held deliveries are sent; null when not paused',
  },
  resuming: {
    type: 'boolean',
    description: 'true from a resume until every held delivery has been sent, in event order',
  },
  held_count: { type: 'integer', description: 'Deliveries held, waiting for the resume' },
  filter: {
    type: ['object', 'null'],
    additionalProperties: true,
    description:
      'The content filter: only events whose data matches it are sent (ADR 0418); null for every event of its types',
  },
  created_at: 'date-time?',
  updated_at: 'date-time?',
});

const DELIVERY_FIELDS = {
  delivery_id: 'string',
  subscription_id: 'integer',
  event: 'string',
  status: 'string',
  occurred_at: 'date-time?',
  created_at: 'date-time?',
  next_attempt_at: 'date-time?',
  attempts: {
    type: 'array',
    items: row({
      attempted_at: 'date-time?',
      response_status: 'integer?',
      duration_ms: 'integer',
      error: 'string?',
      response_body: 'string?',
      request: {
        type: ['object', 'null'],
        description:
          'The request as sent: the URL without its password or credential-like query values, the headers with signature values masked; null for attempts recorded before',
        properties: {
          method: { type: 'string' },
          url: { type: 'string' },
          headers: { type: 'object', additionalProperties: { type: 'string' } },
        },
        required: ['method', 'url', 'headers'],
      },
    }),
  },
} as const;

export const DELIVERY_ROW = row(DELIVERY_FIELDS);

/** One delivery: its log entry and the JSON body every attempt sends. */
export const DELIVERY_DETAIL_ROW = row({
  ...DELIVERY_FIELDS,
  payload: {
    type: ['string', 'null'],
    description: 'The JSON body every attempt sends, as sent',
  },
});

export const RECOVER_JOB_ROW = row({
  id: 'string',
  subscription_id: 'integer',
  since: 'date-time?',
  status: {
    type: 'string',
    enum: ['running', 'completed'],
    description: 'completed once every found delivery has been sent again',
  },
  found: { type: 'integer', description: 'Failed deliveries found when it started' },
  sent: { type: 'integer', description: 'Sent again so far, as the per-tenant cap allows' },
  succeeded: { type: 'integer', description: 'Of those sent again: delivered' },
  failed: { type: 'integer', description: 'Of those sent again: failed again' },
  pending: { type: 'integer', description: 'Of those sent again: still being attempted' },
  created_at: 'date-time?',
  finished_at: 'date-time?',
});

const withSecret = row({
  ...(SUBSCRIPTION_ROW.properties as Record<string, never>),
  secret: { type: 'string', description: 'Shown only in this answer' },
});

const tags = ['Webhook subscriptions'];
export const subscriptionSchemas = {
  create: { tags, response: { 201: dataOf(withSecret) } },
  list: { tags, response: { 200: flatEnvelopeSchema(SUBSCRIPTION_ROW) } },
  show: { tags, response: { 200: dataOf(SUBSCRIPTION_ROW) } },
  update: { tags, response: { 200: dataOf(SUBSCRIPTION_ROW) } },
  remove: { tags },
  rotateSecret: {
    tags,
    response: {
      200: dataOf(row({ secret: 'string', previous_secret_expires_at: 'date-time?' })),
    },
  },
  deliveries: { tags, response: { 200: flatEnvelopeSchema(DELIVERY_ROW) } },
  delivery: {
    tags,
    summary: "One delivery: the payload it sends and each attempt's request beside its response",
    response: { 200: dataOf(DELIVERY_DETAIL_ROW) },
  },
  redeliver: { tags, response: { 202: dataOf(DELIVERY_ROW) } },
  sendTest: { tags, response: { 202: dataOf(DELIVERY_ROW) } },
  recover: {
    tags,
    summary:
      'Recover: send again every failed delivery since a time, as a job paced by the per-tenant cap',
    response: { 202: dataOf(RECOVER_JOB_ROW) },
  },
  recoverJob: {
    tags,
    summary: 'A recover job and its progress',
    response: { 200: dataOf(RECOVER_JOB_ROW) },
  },
  pause: {
    tags,
    summary: 'Pause a subscription: its deliveries are held, not sent, until it is resumed',
    response: { 200: dataOf(SUBSCRIPTION_ROW) },
  },
  resume: {
    tags,
    summary: 'Resume a paused subscription: the held deliveries are sent in event order',
    response: { 200: dataOf(SUBSCRIPTION_ROW) },
  },
};
