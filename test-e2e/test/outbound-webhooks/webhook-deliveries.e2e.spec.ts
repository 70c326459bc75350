import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { domainEventEntry } from '@inventory/events';
import { describe, expect, it } from 'vitest';
import { createUserWithToken, productCreatedEntry } from '../../src/index.js';
import { PATH, poll, subscriptionHarness } from './subscription-harness.js';

describe('outbound webhook deliveries through the gateway', () => {
  const h = subscriptionHarness();

  it('is_active: false creates a paused subscription that is sent nothing until it is switched on', async () => {
    const created = await h.create(h.owner, {
      url: `${h.receiverUrl}/paused`,
      events: ['customer.created'],
      is_active: false,
      description: 'two\nlines',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ is_active: false, description: 'two\nlines' });
    const id = created.body.data.id as number;
    const emit = async (customer: number) => {
      const { type, event } = domainEventEntry({
        tenantId: h.owner.tenant.id,
        name: 'customer.created',
        data: { id: customer },
      });
      await h.publisher.publish(type, event);
    };
    await emit(1);
    // Fan-out has handled every event so far (the paused subscription got none), before it is
    // switched on.
    await poll(async () => {
      const info = await (
        await h.nats.jetstreamManager()
      ).consumers.info('DOMAIN', 'outbound-delivery-fan-out');
      return info.num_pending + info.num_ack_pending === 0 || undefined;
    });
    expect((await h.owner.request('PATCH', `${PATH}/${id}`, { is_active: true })).status).toBe(200);
    await emit(2);
    const delivered = await poll(() => h.received.find((r) => r.path === '/paused'));
    expect(JSON.parse(delivered.body).data).toEqual({
      id: 2,
      resource_sequence: expect.any(Number),
    });
    expect(
      h.received.filter((r) => r.path === '/paused').map((r) => JSON.parse(r.body).data.id),
    ).toEqual([2]);
  });

  it('changing, reading, rotating, pinging or redelivering a subscription needs the scope and permission of every event it carries', async () => {
    const created = await h.create(h.owner, {
      url: `${h.receiverUrl}/orders-original`,
      events: ['sales_order.created'],
    });
    const id = created.body.data.id as number;
    const manageOnly = await createUserWithToken(h.system, h.owner.tenant, {
      scopes: ['webhooks:manage'],
    });
    const noOrdersPermission = await createUserWithToken(h.system, h.owner.tenant, {
      isOwner: false,
      permissions: ['webhooks:manage', 'products:read'],
    });
    const attempts = [
      ['PATCH', `${PATH}/${id}`, { url: `${h.receiverUrl}/orders-hijacked` }],
      ['PATCH', `${PATH}/${id}`, { description: 'only the description' }],
      ['PATCH', `${PATH}/${id}`, { is_active: false }],
      ['GET', `${PATH}/${id}`, undefined],
      ['POST', `${PATH}/${id}/rotate-secret`, undefined],
      ['POST', `${PATH}/${id}/test`, undefined],
      ['GET', `${PATH}/${id}/deliveries`, undefined],
      [
        'POST',
        `${PATH}/${id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`,
        undefined,
      ],
    ] as const;
    for (const [method, path, body] of attempts) {
      const byToken = await manageOnly.request(method, path, body);
      expect(byToken.status, `token ${method} ${path}`).toBe(403);
      expect(byToken.body).toEqual({
        message: 'Token is missing the required scope: orders:read.',
        required_scope: 'orders:read',
      });
      const byUser = await noOrdersPermission.request(method, path, body);
      expect(byUser.status, `user ${method} ${path}`).toBe(403);
      expect(byUser.body).toEqual({
        message: 'You do not have the permission required for this action: orders:read.',
      });
    }
    const unchanged = await h.owner.request('GET', `${PATH}/${id}`);
    expect(unchanged.body.data).toMatchObject({
      url: `${h.receiverUrl}/orders-original`,
      description: null,
      is_active: true,
    });

    const { type, event } = domainEventEntry({
      tenantId: h.owner.tenant.id,
      name: 'sales_order.created',
      data: { id: 501 },
    });
    await h.publisher.publish(type, event);
    await poll(() => h.received.find((r) => r.path === '/orders-original'));
    expect(h.received.filter((r) => r.path === '/orders-hijacked')).toEqual([]);
  });

  it('after a rotation X-SVC-Signature is one sha256= value of the new secret, and Standard Webhooks verifies with either secret', async () => {
    const created = await h.create(h.owner, {
      url: `${h.receiverUrl}/rotated`,
      events: ['product.created'],
    });
    const { id, secret: oldSecret } = created.body.data as { id: number; secret: string };
    const rotated = await h.owner.request('POST', `${PATH}/${id}/rotate-secret`);
    const newSecret = rotated.body.data.secret as string;
    expect((await h.owner.request('POST', `${PATH}/${id}/test`)).status).toBe(202);
    const ping = await poll(() => h.received.find((r) => r.path === '/rotated'));
    const svc = ping.headers['x-svc-signature'] as string;
    expect(svc).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify(newSecret, ping.body, svc)).toBe(true);
    const standard = {
      'webhook-id': ping.headers['webhook-id'] as string,
      'webhook-timestamp': ping.headers['webhook-timestamp'] as string,
      'webhook-signature': ping.headers['webhook-signature'] as string,
    };
    expect(standard['webhook-id']).toBe(ping.headers['x-svc-delivery-id']);
    for (const secret of [newSecret, oldSecret])
      expect(new Webhook(secret).verify(ping.body, standard)).toMatchObject({ event: 'ping' });
    const tampered = ping.body.replace('"ping"', '"pong"');
    expect(() => new Webhook(newSecret).verify(tampered, standard)).toThrow();
    const stale = {
      ...standard,
      'webhook-timestamp': String(Number(standard['webhook-timestamp']) - 3600),
    };
    expect(() => new Webhook(newSecret).verify(ping.body, stale)).toThrow();
  });

  it('an emitted product.created reaches a local receiver, signed; the log, test ping and redeliver work over HTTP', async () => {
    const created = await h.create(h.owner, {
      url: `${h.receiverUrl}/emit`,
      events: ['product.created'],
    });
    const { id, secret } = created.body.data as { id: number; secret: string };
    // What `npm run emit -- catalog.product.created --data '{"product_id":7,"sku":"SKU-7",…}'`
    // publishes: the one event of a product created (ADR 0416).
    const { type, event } = productCreatedEntry({
      tenantId: h.owner.tenant.id,
      product: { product_id: 7, sku: 'SKU-7' },
    });
    await h.publisher.publish(type, event);
    const delivery = await poll(() => h.received.find((r) => r.path === '/emit'));
    const body = JSON.parse(delivery.body);
    expect(body).toMatchObject({ event: 'product.created', data: { id: 7, sku: 'SKU-7' } });
    expect(await verify(secret, delivery.body, delivery.headers['x-svc-signature'] as string)).toBe(
      true,
    );

    const log = await poll(async () => {
      const response = await h.owner.request('GET', `${PATH}/${id}/deliveries?status=succeeded`);
      return response.body.total === 1 ? response : undefined;
    });
    expect(log.body.data[0]).toMatchObject({
      delivery_id: body.delivery_id,
      event: 'product.created',
      status: 'succeeded',
      attempts: [expect.objectContaining({ response_status: 200, error: null })],
    });
    expect(log.body).toHaveProperty('links');

    const ping = await h.owner.request('POST', `${PATH}/${id}/test`);
    expect(ping.status).toBe(202);
    expect(ping.body.data).toMatchObject({ event: 'ping', status: 'pending' });
    await poll(() =>
      h.received.find((r) => r.path === '/emit' && r.headers['x-svc-event'] === 'ping'),
    );

    const redeliver = await h.owner.request(
      'POST',
      `${PATH}/${id}/deliveries/${body.delivery_id}/redeliver`,
    );
    expect(redeliver.status).toBe(202);
    await poll(
      () =>
        h.received.filter((r) => r.headers['x-svc-delivery-id'] === body.delivery_id).length ===
          2 || undefined,
    );
    expect((await h.owner.request('GET', `${PATH}/${id}/deliveries?status=nope`)).status).toBe(422);
  });
});
