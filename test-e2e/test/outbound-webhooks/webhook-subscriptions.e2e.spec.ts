import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { domainEventEntry } from '@inventory/events';
import { EventPublisher, connectNats } from '@inventory/platform';
import type { NatsConnection } from 'nats';
import { waitFor } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_SCOPES,
  createTenantWithToken,
  createUserWithToken,
  loginSession,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

const PATH = '/api/webhook-subscriptions';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('outbound webhooks through the gateway', () => {
  let system: RunningSystem;
  let owner: TenantFixture;
  let nats: NatsConnection;
  let publisher: EventPublisher;
  const received: Received[] = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(200).end();
    });
  });
  let receiverUrl = '';

  beforeAll(async () => {
    system = await startSystem({
      serviceEnv: {
        'outbound-delivery': {
          WEBHOOK_ALLOW_HTTP: 'true',
          WEBHOOK_ALLOW_LOOPBACK: 'true',
          WEBHOOK_RETRY_DELAYS_MS: '50,100',
          WEBHOOK_TIMEOUT_MS: '1000',
          DELIVERY_POLL_MS: '25',
        },
      },
    });
    owner = await createTenantWithToken(system);
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    nats = await connectNats(system.infra.natsUrl, 'e2e-emit');
    publisher = new EventPublisher(nats.jetstream());
  }, 120_000);
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await nats?.drain();
    await system?.stop();
  });

  const create = (t: TenantFixture, body: unknown) => t.request('POST', PATH, body);

  it('POST 201 returns the secret once; GET, the flat list, PATCH and DELETE never show it', async () => {
    // A tenant of its own: this test counts the tenant's subscriptions.
    const owner = await createTenantWithToken(system);
    const created = await create(owner, {
      url: `${receiverUrl}/crud`,
      events: ['product.created', 'customer.created'],
      description: 'Warehouse sync',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      data: {
        id: expect.any(Number),
        url: `${receiverUrl}/crud`,
        events: ['product.created', 'customer.created'],
        description: 'Warehouse sync',
        is_active: true,
        deactivated_reason: null,
        consecutive_failures: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      },
    });
    const id = created.body.data.id as number;
    const one = await owner.request('GET', `${PATH}/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).not.toHaveProperty('secret');
    expect(one.text).not.toContain('whsec_');

    await create(owner, { url: `${receiverUrl}/second`, events: ['product.created'] });
    const list = await owner.request('GET', `${PATH}?per_page=1&page=2&foo=bar`);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('whsec_');
    const base = `${owner.baseUrl}${PATH}`;
    expect(list.body).toEqual({
      data: [expect.objectContaining({ url: `${receiverUrl}/second` })],
      current_page: 2,
      last_page: 2,
      per_page: 1,
      total: 2,
      from: 2,
      to: 2,
      first_page_url: `${base}?per_page=1&page=1&foo=bar`,
      last_page_url: `${base}?per_page=1&page=2&foo=bar`,
      next_page_url: null,
      prev_page_url: `${base}?per_page=1&page=1&foo=bar`,
      path: base,
      links: [
        { url: `${base}?per_page=1&page=1&foo=bar`, label: '« Previous', active: false },
        { url: `${base}?per_page=1&page=1&foo=bar`, label: '1', active: false },
        { url: `${base}?per_page=1&page=2&foo=bar`, label: '2', active: true },
        { url: null, label: 'Next »', active: false },
      ],
    });
    expect((await owner.request('GET', PATH)).body.per_page).toBe(10);

    const patched = await owner.request('PATCH', `${PATH}/${id}`, {
      description: null,
      events: ['inventory.adjusted'],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ description: null, events: ['inventory.adjusted'] });
    expect(patched.body.data).not.toHaveProperty('secret');

    const rotated = await owner.request('POST', `${PATH}/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(created.body.data.secret);

    expect((await owner.request('DELETE', `${PATH}/${id}`)).status).toBe(204);
    expect((await owner.request('GET', `${PATH}/${id}`)).status).toBe(404);
  });

  it('404 for unknown ids, junk ids and another tenant subscription', async () => {
    const other = await createTenantWithToken(system);
    const theirs = await create(other, {
      url: `${receiverUrl}/theirs`,
      events: ['product.created'],
    });
    const id = theirs.body.data.id as number;
    for (const [method, path] of [
      ['GET', `${PATH}/${id}`],
      ['PATCH', `${PATH}/${id}`],
      ['DELETE', `${PATH}/${id}`],
      ['POST', `${PATH}/${id}/rotate-secret`],
      ['POST', `${PATH}/${id}/test`],
      ['GET', `${PATH}/${id}/deliveries`],
      ['POST', `${PATH}/${id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`],
      ['GET', `${PATH}/999999`],
      ['GET', `${PATH}/abc`],
      ['GET', `${PATH}/0`],
    ] as const) {
      const response = await owner.request(method, path, method === 'PATCH' ? {} : undefined);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toMatchObject({
        status: 'failure',
        errors: { url: [{ code: 'NotFound' }] },
      });
    }
    expect((await other.request('GET', `${PATH}/${id}`)).status).toBe(200);
  });

  it('422 names the bad event, bad types, a refused url; nothing is written', async () => {
    const before = (await owner.request('GET', PATH)).body.total as number;
    const bad = await create(owner, {
      url: `${receiverUrl}/x`,
      events: ['product.created', 'order.exploded'],
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      message: 'The event "order.exploded" is not in the webhook event catalog.',
      errors: { 'events.1': ['The event "order.exploded" is not in the webhook event catalog.'] },
    });
    for (const body of [
      {},
      { url: 123, events: 'product.created' },
      { url: `${receiverUrl}/x`, events: [] },
      { url: `${receiverUrl}/x`, events: [1] },
      { url: `${receiverUrl}/x`, events: Array(101).fill('product.created') },
      { url: `${receiverUrl}/x`, events: ['product.created'], description: 7 },
      { url: `${receiverUrl}/x`, events: ['product.created'], description: 'a\u0000b' },
      { url: `${receiverUrl}/x`, events: ['product.created'], description: 'bell\u0007' },
      { url: `${receiverUrl}/x`, events: ['product.created'], is_active: 'no' },
      { url: 'x'.repeat(3000), events: ['product.created'] },
      { url: 'http://10.0.0.1/hook', events: ['product.created'] },
      { url: 'http://user:pw@127.0.0.1/hook', events: ['product.created'] },
      [1, 2, 3],
    ]) {
      const response = await create(owner, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(response.body).toEqual({ message: expect.any(String), errors: expect.any(Object) });
    }
    expect((await owner.request('GET', PATH)).body.total).toBe(before);
    expect((await owner.request('GET', `${PATH}?page=abc`)).status).toBe(422);
  });

  it('403 without webhooks:manage, without the event read scope, or without the user permission', async () => {
    const noManage = await createUserWithToken(system, owner.tenant, {
      scopes: ALL_SCOPES.filter((scope) => scope !== 'webhooks:manage'),
    });
    const refused = await noManage.request('GET', PATH);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: 'Token is missing the required scope: webhooks:manage.',
      required_scope: 'webhooks:manage',
    });

    const manageOnly = await createUserWithToken(system, owner.tenant, {
      scopes: ['webhooks:manage', 'products:read'],
    });
    const missingRead = await create(manageOnly, {
      url: `${receiverUrl}/x`,
      events: ['product.created', 'sales_order.created'],
    });
    expect(missingRead.status).toBe(403);
    expect(missingRead.body).toEqual({
      message: 'Token is missing the required scope: orders:read.',
      required_scope: 'orders:read',
    });
    expect(
      (await create(manageOnly, { url: `${receiverUrl}/x`, events: ['product.created'] })).status,
    ).toBe(201);

    const limitedUser = await createUserWithToken(system, owner.tenant, {
      isOwner: false,
      permissions: ['webhooks:manage', 'products:read'],
    });
    const noPermission = await create(limitedUser, {
      url: `${receiverUrl}/x`,
      events: ['customer.created'],
    });
    expect(noPermission.status).toBe(403);
    expect(noPermission.body.message).toContain('customers:read');
    expect(noPermission.body).not.toHaveProperty('required_scope');

    const session = await loginSession(limitedUser, system.gatewayUrl);
    expect(
      (
        await session.request('POST', PATH, {
          url: `${receiverUrl}/s`,
          events: ['customer.created'],
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await session.request('POST', PATH, {
          url: `${receiverUrl}/s`,
          events: ['product.created'],
        })
      ).status,
    ).toBe(201);
    const noWebhookPermission = await createUserWithToken(system, owner.tenant, {
      isOwner: false,
      permissions: ['products:read'],
    });
    expect((await noWebhookPermission.request('GET', PATH)).status).toBe(403);
  });

  it('is_active: false creates a paused subscription that is sent nothing until it is switched on', async () => {
    const created = await create(owner, {
      url: `${receiverUrl}/paused`,
      events: ['customer.created'],
      is_active: false,
      description: 'two\nlines',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ is_active: false, description: 'two\nlines' });
    const id = created.body.data.id as number;
    const emit = async (customer: number) => {
      const { type, event } = domainEventEntry({
        tenantId: owner.tenant.id,
        name: 'customer.created',
        data: { id: customer },
      });
      await publisher.publish(type, event);
    };
    await emit(1);
    // Fan-out has handled every event so far (the paused subscription got none), before it is
    // switched on.
    await poll(async () => {
      const info = await (
        await nats.jetstreamManager()
      ).consumers.info('DOMAIN', 'outbound-delivery-fan-out');
      return info.num_pending + info.num_ack_pending === 0 || undefined;
    });
    expect((await owner.request('PATCH', `${PATH}/${id}`, { is_active: true })).status).toBe(200);
    await emit(2);
    const delivered = await poll(() => received.find((r) => r.path === '/paused'));
    expect(JSON.parse(delivered.body).data).toEqual({ id: 2 });
    expect(
      received.filter((r) => r.path === '/paused').map((r) => JSON.parse(r.body).data.id),
    ).toEqual([2]);
  });

  it('changing, reading, rotating, pinging or redelivering a subscription needs the scope and permission of every event it carries', async () => {
    const created = await create(owner, {
      url: `${receiverUrl}/orders-original`,
      events: ['sales_order.created'],
    });
    const id = created.body.data.id as number;
    const manageOnly = await createUserWithToken(system, owner.tenant, {
      scopes: ['webhooks:manage'],
    });
    const noOrdersPermission = await createUserWithToken(system, owner.tenant, {
      isOwner: false,
      permissions: ['webhooks:manage', 'products:read'],
    });
    const attempts = [
      ['PATCH', `${PATH}/${id}`, { url: `${receiverUrl}/orders-hijacked` }],
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
    const unchanged = await owner.request('GET', `${PATH}/${id}`);
    expect(unchanged.body.data).toMatchObject({
      url: `${receiverUrl}/orders-original`,
      description: null,
      is_active: true,
    });

    const { type, event } = domainEventEntry({
      tenantId: owner.tenant.id,
      name: 'sales_order.created',
      data: { id: 501 },
    });
    await publisher.publish(type, event);
    await poll(() => received.find((r) => r.path === '/orders-original'));
    expect(received.filter((r) => r.path === '/orders-hijacked')).toEqual([]);
  });

  it('after a rotation X-SVC-Signature is one sha256= value of the new secret, and Standard Webhooks verifies with either secret', async () => {
    const created = await create(owner, {
      url: `${receiverUrl}/rotated`,
      events: ['product.created'],
    });
    const { id, secret: oldSecret } = created.body.data as { id: number; secret: string };
    const rotated = await owner.request('POST', `${PATH}/${id}/rotate-secret`);
    const newSecret = rotated.body.data.secret as string;
    expect((await owner.request('POST', `${PATH}/${id}/test`)).status).toBe(202);
    const ping = await poll(() => received.find((r) => r.path === '/rotated'));
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
    const created = await create(owner, {
      url: `${receiverUrl}/emit`,
      events: ['product.created'],
    });
    const { id, secret } = created.body.data as { id: number; secret: string };
    // What `npm run emit -- product.created --data '{"id":7,"sku":"SKU-7"}'` publishes.
    const { type, event } = domainEventEntry({
      tenantId: owner.tenant.id,
      name: 'product.created',
      data: { id: 7, sku: 'SKU-7' },
    });
    await publisher.publish(type, event);
    const delivery = await poll(() => received.find((r) => r.path === '/emit'));
    const body = JSON.parse(delivery.body);
    expect(body).toMatchObject({ event: 'product.created', data: { id: 7, sku: 'SKU-7' } });
    expect(await verify(secret, delivery.body, delivery.headers['x-svc-signature'] as string)).toBe(
      true,
    );

    const log = await poll(async () => {
      const response = await owner.request('GET', `${PATH}/${id}/deliveries?status=succeeded`);
      return response.body.total === 1 ? response : undefined;
    });
    expect(log.body.data[0]).toMatchObject({
      delivery_id: body.delivery_id,
      event: 'product.created',
      status: 'succeeded',
      attempts: [expect.objectContaining({ response_status: 200, error: null })],
    });
    expect(log.body).toHaveProperty('links');

    const ping = await owner.request('POST', `${PATH}/${id}/test`);
    expect(ping.status).toBe(202);
    expect(ping.body.data).toMatchObject({ event: 'ping', status: 'pending' });
    await poll(() =>
      received.find((r) => r.path === '/emit' && r.headers['x-svc-event'] === 'ping'),
    );

    const redeliver = await owner.request(
      'POST',
      `${PATH}/${id}/deliveries/${body.delivery_id}/redeliver`,
    );
    expect(redeliver.status).toBe(202);
    await poll(
      () =>
        received.filter((r) => r.headers['x-svc-delivery-id'] === body.delivery_id).length === 2 ||
        undefined,
    );
    expect((await owner.request('GET', `${PATH}/${id}/deliveries?status=nope`)).status).toBe(422);
  });
});

const poll = <T>(check: () => T | undefined | Promise<T | undefined>): Promise<T> =>
  waitFor(check, 60_000);
