import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { domainEventEntry, isDomainEventName, type WebhookEventName } from '@inventory/events';
import { describe, expect, it } from 'vitest';
import { createUserWithToken, httpCall, productCreatedEntry } from '../../src/index.js';
import { poll, subscriptionHarness, type Received } from './subscription-harness.js';

/** The specification's event catalog (Events → Outbound webhooks), written out here on purpose. */
const SPEC_CATALOG = [
  ['sales_order.created', 'orders:read', 'A sales order is created (any channel or manual).'],
  ['sales_order.shipped', 'orders:read', 'A sales order is fully fulfilled / shipped.'],
  ['sales_order.cancelled', 'orders:read', 'A sales order is cancelled (manual or channel sync).'],
  ['purchase_order.created', 'purchase-orders:read', 'A purchase order is created.'],
  ['purchase_order.approved', 'purchase-orders:read', 'A purchase order is approved.'],
  [
    'purchase_order.submitted',
    'purchase-orders:read',
    'A purchase order is submitted to the supplier.',
  ],
  [
    'purchase_order.received',
    'purchase-orders:read',
    'Goods are received against a purchase order.',
  ],
  ['inventory.adjusted', 'inventory:read', 'Inventory levels are adjusted (manual or system).'],
  ['product.created', 'products:read', 'A product is created (UI, API or import).'],
  [
    'customer.created',
    'customers:read',
    'A customer is created (manual or first seen from a channel).',
  ],
] as const;

interface EventType {
  name: WebhookEventName;
  description: string;
  scope: string;
  data_schema: { $schema: string; examples: Record<string, unknown>[] };
}
interface AsyncApiMessage {
  headers: { properties: Record<string, object>; required: string[] };
  payload: object;
}

/** Node lowercases header names; the documents write them as sent. */
const lowerCased = (schema: AsyncApiMessage['headers']) => ({
  ...schema,
  required: schema.required.map((name) => name.toLowerCase()),
  properties: Object.fromEntries(
    Object.entries(schema.properties).map(([name, value]) => [name.toLowerCase(), value]),
  ),
});

describe('the webhook event catalog and its AsyncAPI document, checked against real deliveries', () => {
  const h = subscriptionHarness();

  it('lists the ten events with the specification’s scopes (and the platform’s own), and every real delivery of each validates against both documents', async () => {
    const listed = await h.owner.request('GET', '/api/webhook-event-types');
    expect(listed.status).toBe(200);
    const types = listed.body.data as EventType[];
    // The specification's ten, then the platform's own event with its own scope (ADR 0413).
    expect(types.slice(0, 10).map((type) => [type.name, type.scope, type.description])).toEqual(
      SPEC_CATALOG.map((row) => [...row]),
    );
    expect(types.slice(10).map((type) => [type.name, type.scope])).toEqual([
      ['webhook_subscription.deactivated', 'webhooks:read'],
    ]);
    const asyncApiAnswer = await httpCall(h.system.gatewayUrl, 'GET', '/api/asyncapi.json', {
      host: 'anything.example',
    });
    expect(asyncApiAnswer.status).toBe(200);
    const asyncApi = asyncApiAnswer.body as {
      asyncapi: string;
      components: { messages: Record<string, AsyncApiMessage> };
    };
    expect(asyncApi.asyncapi).toBe('3.0.0');

    // The standard validators, as a receiver would run them: 2020-12 for the API's schemas,
    // draft-07 (AsyncAPI's default schema format) for the document's.
    const ajv2020 = addFormats.default(new Ajv2020({ strict: true, allErrors: true }));
    const draft7 = addFormats.default(new Ajv({ strictTypes: false, allErrors: true }));
    draft7.addKeyword('x-required-scope');

    const created = await h.create(h.owner, {
      url: `${h.receiverUrl}/catalog`,
      events: types.map((type) => type.name),
    });
    expect(created.status).toBe(201);
    for (const type of types) {
      const example = type.data_schema.examples[0]!;
      const tenantId = h.owner.tenant.id;
      // product.created's one fact is the catalog record (ADR 0416); the others are DOMAIN events.
      if (type.name === 'product.created') {
        const { type: busType, event } = productCreatedEntry({
          tenantId,
          product: {
            product_id: example.id as number,
            sku: example.sku as string,
            name: example.name as string,
          },
        });
        await h.publisher.publish(busType, event);
        continue;
      }
      if (!isDomainEventName(type.name)) throw new Error(`${type.name} has no DOMAIN subject`);
      const { type: busType, event } = domainEventEntry({
        tenantId,
        name: type.name,
        data: example,
      });
      await h.publisher.publish(busType, event);
    }
    const deliveries = await poll(() => {
      const got = h.received.filter((r) => r.path === '/catalog');
      return got.length === types.length ? got : undefined;
    });

    const deliveryOf = (name: string): Received =>
      deliveries.find((r) => r.headers['x-svc-event'] === name)!;
    for (const type of types) {
      const delivery = deliveryOf(type.name);
      const body = JSON.parse(delivery.body) as { data: unknown };
      const data = ajv2020.compile(type.data_schema);
      expect(data(body.data), `${type.name} data: ${ajv2020.errorsText(data.errors)}`).toBe(true);
      const message = asyncApi.components.messages[type.name]!;
      const payload = draft7.compile(message.payload);
      expect(payload(body), `${type.name} body: ${draft7.errorsText(payload.errors)}`).toBe(true);
      const headers = draft7.compile(lowerCased(message.headers));
      expect(
        headers(delivery.headers),
        `${type.name} headers: ${draft7.errorsText(headers.errors)}`,
      ).toBe(true);
      // The validators do look: what a drifted delivery would be is refused.
      expect(data({ ...(body.data as object), id: String((body.data as { id: number }).id) })).toBe(
        false,
      );
      expect(payload({ ...body, event: `${type.name}.v2` })).toBe(false);
    }
  });

  it('needs a valid token (no scope) for the list; the AsyncAPI document is public', async () => {
    expect((await h.owner.anonymous('GET', '/api/webhook-event-types')).status).toBe(401);
    const noScopes = await createUserWithToken(h.system, h.owner.tenant, { scopes: [] });
    expect((await noScopes.request('GET', '/api/webhook-event-types')).status).toBe(200);
  });
});
