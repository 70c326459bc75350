import { describe, expect, it } from 'vitest';
import {
  ALL_SCOPES,
  createTenantWithToken,
  createUserWithToken,
  loginSession,
} from '../../src/index.js';
import { PATH, subscriptionHarness } from './subscription-harness.js';

describe('outbound webhook subscriptions through the gateway', () => {
  const h = subscriptionHarness();

  it('POST 201 returns the secret once; GET, the flat list, PATCH and DELETE never show it', async () => {
    // A tenant of its own: this test counts the tenant's subscriptions.
    const owner = await createTenantWithToken(h.system);
    const created = await h.create(owner, {
      url: `${h.receiverUrl}/crud`,
      events: ['product.created', 'customer.created'],
      description: 'Warehouse sync',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      data: {
        id: expect.any(Number),
        url: `${h.receiverUrl}/crud`,
        events: ['product.created', 'customer.created'],
        description: 'Warehouse sync',
        is_active: true,
        deactivated_reason: null,
        consecutive_failures: 0,
        paused_at: null,
        pause_expires_at: null,
        resuming: false,
        held_count: 0,
        filter: null,
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

    await h.create(owner, { url: `${h.receiverUrl}/second`, events: ['product.created'] });
    const list = await owner.request('GET', `${PATH}?per_page=1&page=2&foo=bar`);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('whsec_');
    const base = `${owner.baseUrl}${PATH}`;
    expect(list.body).toEqual({
      data: [expect.objectContaining({ url: `${h.receiverUrl}/second` })],
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
    const other = await createTenantWithToken(h.system);
    const theirs = await h.create(other, {
      url: `${h.receiverUrl}/theirs`,
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
      const response = await h.owner.request(method, path, method === 'PATCH' ? {} : undefined);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toMatchObject({
        status: 'failure',
        errors: { url: [{ code: 'NotFound' }] },
      });
    }
    expect((await other.request('GET', `${PATH}/${id}`)).status).toBe(200);
  });

  it('422 names the bad event, bad types, a refused url; nothing is written', async () => {
    const before = (await h.owner.request('GET', PATH)).body.total as number;
    const bad = await h.create(h.owner, {
      url: `${h.receiverUrl}/x`,
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
      { url: `${h.receiverUrl}/x`, events: [] },
      { url: `${h.receiverUrl}/x`, events: [1] },
      { url: `${h.receiverUrl}/x`, events: Array(101).fill('product.created') },
      { url: `${h.receiverUrl}/x`, events: ['product.created'], description: 7 },
      { url: `${h.receiverUrl}/x`, events: ['product.created'], description: 'a\u0000b' },
      { url: `${h.receiverUrl}/x`, events: ['product.created'], description: 'bell\u0007' },
      { url: `${h.receiverUrl}/x`, events: ['product.created'], is_active: 'no' },
      { url: 'x'.repeat(3000), events: ['product.created'] },
      { url: 'http://10.0.0.1/hook', events: ['product.created'] },
      { url: 'http://user:pw@127.0.0.1/hook', events: ['product.created'] },
      [1, 2, 3],
    ]) {
      const response = await h.create(h.owner, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(response.body).toEqual({ message: expect.any(String), errors: expect.any(Object) });
    }
    expect((await h.owner.request('GET', PATH)).body.total).toBe(before);
    expect((await h.owner.request('GET', `${PATH}?page=abc`)).status).toBe(422);
  });

  it('403 without webhooks:manage, without the event read scope, or without the user permission', async () => {
    const noManage = await createUserWithToken(h.system, h.owner.tenant, {
      scopes: ALL_SCOPES.filter((scope) => scope !== 'webhooks:manage'),
    });
    const refused = await noManage.request('GET', PATH);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: 'Token is missing the required scope: webhooks:manage.',
      required_scope: 'webhooks:manage',
    });

    const manageOnly = await createUserWithToken(h.system, h.owner.tenant, {
      scopes: ['webhooks:manage', 'products:read'],
    });
    const missingRead = await h.create(manageOnly, {
      url: `${h.receiverUrl}/x`,
      events: ['product.created', 'sales_order.created'],
    });
    expect(missingRead.status).toBe(403);
    expect(missingRead.body).toEqual({
      message: 'Token is missing the required scope: orders:read.',
      required_scope: 'orders:read',
    });
    expect(
      (await h.create(manageOnly, { url: `${h.receiverUrl}/x`, events: ['product.created'] }))
        .status,
    ).toBe(201);

    const limitedUser = await createUserWithToken(h.system, h.owner.tenant, {
      isOwner: false,
      permissions: ['webhooks:manage', 'products:read'],
    });
    const noPermission = await h.create(limitedUser, {
      url: `${h.receiverUrl}/x`,
      events: ['customer.created'],
    });
    expect(noPermission.status).toBe(403);
    expect(noPermission.body.message).toContain('customers:read');
    expect(noPermission.body).not.toHaveProperty('required_scope');

    const session = await loginSession(limitedUser, h.system.gatewayUrl);
    expect(
      (
        await session.request('POST', PATH, {
          url: `${h.receiverUrl}/s`,
          events: ['customer.created'],
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await session.request('POST', PATH, {
          url: `${h.receiverUrl}/s`,
          events: ['product.created'],
        })
      ).status,
    ).toBe(201);
    const noWebhookPermission = await createUserWithToken(h.system, h.owner.tenant, {
      isOwner: false,
      permissions: ['products:read'],
    });
    expect((await noWebhookPermission.request('GET', PATH)).status).toBe(403);
  });
});
