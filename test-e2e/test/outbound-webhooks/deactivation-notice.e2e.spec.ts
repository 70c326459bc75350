import { createServer } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, loginSession, productCreatedEntry } from '../../src/index.js';
import { PATH, poll, subscriptionHarness } from './subscription-harness.js';

describe('a deactivated subscription notifies the account: the alert and the webhook event', () => {
  const h = subscriptionHarness();
  // A receiver that has gone away for good: HTTP 410 to everything.
  const gone = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(410).end('gone'));
  });
  let goneUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    goneUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    gone.closeAllConnections();
    await new Promise((resolve) => gone.close(resolve));
  });

  it('a 410 switches it off; the bell names it, the reason and the failure; a watcher gets webhook_subscription.deactivated', async () => {
    const watcher = await h.create(h.owner, {
      url: `${h.receiverUrl}/watcher`,
      events: ['webhook_subscription.deactivated'],
    });
    expect(watcher.status).toBe(201);
    const dying = await h.create(h.owner, {
      url: goneUrl,
      events: ['product.created'],
      description: 'Old ERP',
    });
    const id = dying.body.data.id as number;
    const { type, event } = productCreatedEntry({
      tenantId: h.owner.tenant.id,
      product: { product_id: 9, sku: 'SKU-9' },
    });
    await h.publisher.publish(type, event);

    const notice = await poll(() => h.received.find((r) => r.path === '/watcher'));
    expect(notice.headers['x-svc-event']).toBe('webhook_subscription.deactivated');
    const body = JSON.parse(notice.body);
    expect(Object.keys(body)).toEqual(['event', 'delivery_id', 'occurred_at', 'data']);
    expect(body.data).toMatchObject({
      id,
      url: goneUrl,
      description: 'Old ERP',
      reason: 'gone',
      last_failures: [{ event: 'product.created', response_status: 410, error: null }],
    });
    // What the platform really sent matches the schema it publishes for the event.
    const types = await h.owner.request('GET', '/api/webhook-event-types');
    const published = (types.body.data as Array<{ name: string; data_schema: object }>).find(
      (type) => type.name === 'webhook_subscription.deactivated',
    )!;
    const ajv = addFormats.default(new Ajv2020({ strict: true, allErrors: true }));
    const validate = ajv.compile(published.data_schema);
    expect(validate(body.data), ajv.errorsText(validate.errors)).toBe(true);
    expect((await h.owner.request('GET', `${PATH}/${id}`)).body.data).toMatchObject({
      is_active: false,
      deactivated_reason: 'gone',
    });

    const session = await loginSession(h.owner, h.system.gatewayUrl);
    const alert = await poll(async () => {
      const list = await session.request('GET', '/api/alerts');
      return (list.body.data as Array<{ kind: string; title: string; message: string }>).find(
        (row) => row.kind === 'webhook_subscription_deactivated',
      );
    });
    expect(alert.title).toBe(`Webhook subscription #${id} (Old ERP) deactivated`);
    expect(alert.message).toContain(`to ${goneUrl} stopped because the receiver answered HTTP 410`);
    expect(alert.message).toMatch(/Last failures: \S+ product\.created: HTTP 410\./);
  });

  it('listing webhook_subscription.deactivated needs the webhooks:read scope (not in the specification’s ten)', async () => {
    const noRead = await createUserWithToken(h.system, h.owner.tenant, {
      scopes: ['webhooks:manage'],
    });
    const refused = await h.create(noRead, {
      url: `${h.receiverUrl}/w2`,
      events: ['webhook_subscription.deactivated'],
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ required_scope: 'webhooks:read' });
    const withRead = await createUserWithToken(h.system, h.owner.tenant, {
      scopes: ['webhooks:manage', 'webhooks:read'],
    });
    const types = await withRead.request('GET', '/api/webhook-event-types');
    expect(
      (types.body.data as Array<{ name: string; scope: string }>).find(
        (type) => type.name === 'webhook_subscription.deactivated',
      ),
    ).toMatchObject({ scope: 'webhooks:read' });
    expect(
      (
        await h.create(withRead, {
          url: `${h.receiverUrl}/w2`,
          events: ['webhook_subscription.deactivated'],
        })
      ).status,
    ).toBe(201);
  });
});
