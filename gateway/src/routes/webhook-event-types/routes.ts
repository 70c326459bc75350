import type { FastifyInstance } from 'fastify';
import { webhookAsyncApiDocument, webhookEventTypes } from '@inventory/events';
import { dataOf, row } from '../../http/row-schema.js';
import { declareRoutes, handle } from '../../http/routes.js';

/**
 * The published event catalog (ADR 0411): the list any valid token reads, and its AsyncAPI 3
 * document, public and host-independent like the OpenAPI document it accompanies.
 */
export const WEBHOOK_EVENT_TYPE_ROUTES = declareRoutes({
  list: { method: 'GET', url: '/api/webhook-event-types', access: 'any-token' },
  asyncApi: { method: 'GET', url: '/api/asyncapi.json', access: 'public', tenantless: true },
});

const EVENT_TYPE_ROW = row({
  name: { type: 'string', description: 'The event name, as listed in a subscription' },
  description: { type: 'string', description: 'When it fires' },
  scope: {
    type: 'string',
    description: 'The token scope (and user permission) a subscription needs to receive it',
  },
  data_schema: {
    type: 'object',
    additionalProperties: true,
    description: "JSON Schema (2020-12) of the delivery's `data`, with an example",
  },
});

const tags = ['Webhook subscriptions'];
const schemas = {
  list: {
    tags,
    summary:
      'The webhook event catalog: each event, when it fires, its scope and the JSON Schema of its data',
    response: { 200: dataOf({ type: 'array', items: EVENT_TYPE_ROW }) },
  },
  asyncApi: {
    tags,
    summary: 'The AsyncAPI 3 document of the outbound webhooks',
    response: {
      200: {
        type: 'object',
        required: ['asyncapi', 'channels', 'operations'],
        additionalProperties: true,
        properties: { asyncapi: { type: 'string', const: '3.0.0' } },
      },
    },
  },
};

export async function webhookEventTypeRoutes(app: FastifyInstance): Promise<void> {
  // Built once: the catalog is code, the same for every tenant.
  const list = { data: webhookEventTypes() };
  const asyncApi = webhookAsyncApiDocument();
  handle(app, WEBHOOK_EVENT_TYPE_ROUTES.list, { schema: schemas.list }, () => list);
  handle(app, WEBHOOK_EVENT_TYPE_ROUTES.asyncApi, { schema: schemas.asyncApi }, () => asyncApi);
}
