// No package imports: the web app bundles this file for the browser (`@inventory/events/browser`).
import { WEBHOOK_EVENT_CATALOG, WEBHOOK_EVENT_NAMES } from './webhook-catalog.js';
import {
  WEBHOOK_EVENT_DATA_SCHEMAS,
  webhookEnvelopeSchema,
  type JsonSchema,
} from './webhook-event-schemas.js';

/** The dialect `GET /api/webhook-event-types` states for each `data_schema`. */
export const WEBHOOK_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export interface WebhookEventType {
  name: string;
  description: string;
  scope: string;
  data_schema: JsonSchema;
}

/** The published catalog: every event a subscription can list, from the one definition. */
export function webhookEventTypes(): WebhookEventType[] {
  return WEBHOOK_EVENT_NAMES.map((name) => ({
    name,
    description: WEBHOOK_EVENT_CATALOG[name].description,
    scope: WEBHOOK_EVENT_CATALOG[name].scope,
    data_schema: { $schema: WEBHOOK_SCHEMA_DIALECT, ...WEBHOOK_EVENT_DATA_SCHEMAS[name] },
  }));
}

/** `sales_order.created` → `salesOrderCreated`: AsyncAPI operation ids. */
const camel = (name: string) =>
  name.replace(/[._]([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * The headers of every delivery (spec: request headers, plus Standard Webhooks'). `SVC` is the
 * deployment's short name (`WEBHOOK_SHORT_NAME`).
 */
function headersSchema(event: string): JsonSchema {
  return {
    type: 'object',
    required: [
      'X-SVC-Event',
      'X-SVC-Delivery-Id',
      'X-SVC-Signature',
      'User-Agent',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ],
    properties: {
      'X-SVC-Event': { type: 'string', const: event },
      'X-SVC-Delivery-Id': { type: 'string', format: 'uuid' },
      'X-SVC-Signature': {
        type: 'string',
        pattern: '^sha256=[0-9a-f]{64}$',
        description: 'Hex HMAC-SHA256 of the raw body keyed with the current whsec_ secret',
      },
      'User-Agent': { type: 'string', const: 'SVC-Webhook/1.0' },
      'Content-Type': { type: 'string', const: 'application/json' },
      'webhook-id': { type: 'string', description: 'The delivery id (Standard Webhooks)' },
      'webhook-timestamp': { type: 'string', pattern: '^[0-9]+$', description: 'Unix seconds' },
      'webhook-signature': {
        type: 'string',
        description:
          'Space-separated v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">, one per live secret',
      },
    },
  };
}

/**
 * The AsyncAPI 3 document of the outbound webhooks, built from the same catalog and schemas as
 * `GET /api/webhook-event-types`: one channel and one `send` operation per event; a channel's
 * address is the subscriber's URL, so it is left null.
 */
export function webhookAsyncApiDocument(): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  for (const type of webhookEventTypes()) {
    const { $schema: _dialect, ...data } = type.data_schema;
    messages[type.name] = {
      name: type.name,
      title: type.name,
      summary: type.description,
      contentType: 'application/json',
      headers: headersSchema(type.name),
      payload: webhookEnvelopeSchema(type.name, data),
      'x-required-scope': type.scope,
    };
    channels[type.name] = {
      address: null,
      title: type.name,
      description: `${type.description} Needs the scope ${type.scope}.`,
      messages: { [type.name]: { $ref: `#/components/messages/${type.name}` } },
    };
    operations[camel(type.name)] = {
      action: 'send',
      title: `Send ${type.name}`,
      channel: { $ref: `#/channels/${type.name}` },
      messages: [{ $ref: `#/channels/${type.name}/messages/${type.name}` }],
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Outbound webhooks',
      version: '1.0.0',
      description:
        'Signed HTTP POSTs to each subscription URL (POST /api/webhook-subscriptions). Up to 3 attempts (waits of 30 s and 300 s, 15 s timeout each); HTTP 410 or 25 consecutive failures deactivate the subscription; at most 600 deliveries per minute per tenant, excess dropped. Ordering is not guaranteed: use occurred_at and delivery_id.',
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: { messages },
  };
}
