import { flatEnvelopeSchema } from '../../http/page-schemas.js';
import { dataOf, row } from '../../http/row-schema.js';

/** What the webhook subscription routes answer (present.ts builds these rows). */
const subscription = row({
  id: 'integer',
  url: 'string',
  events: 'string[]',
  description: 'string?',
  is_active: 'boolean',
  created_at: 'date-time?',
  updated_at: 'date-time?',
});

const delivery = row({
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
    }),
  },
});

const withSecret = row({
  ...(subscription.properties as Record<string, never>),
  secret: { type: 'string', description: 'Shown only in this answer' },
});

const tags = ['Webhook subscriptions'];
export const subscriptionSchemas = {
  create: { tags, response: { 201: dataOf(withSecret) } },
  list: { tags, response: { 200: flatEnvelopeSchema(subscription) } },
  show: { tags, response: { 200: dataOf(subscription) } },
  update: { tags, response: { 200: dataOf(subscription) } },
  remove: { tags },
  rotateSecret: {
    tags,
    response: {
      200: dataOf(row({ secret: 'string', previous_secret_expires_at: 'date-time?' })),
    },
  },
  deliveries: { tags, response: { 200: flatEnvelopeSchema(delivery) } },
  redeliver: { tags, response: { 202: dataOf(delivery) } },
  sendTest: { tags, response: { 202: dataOf(delivery) } },
};
