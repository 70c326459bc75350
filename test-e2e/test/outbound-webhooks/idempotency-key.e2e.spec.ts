import type { GatewayHandle } from '@inventory/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  httpCall,
  loginSession,
  startSecondGateway,
  type TenantFixture,
} from '../../src/index.js';
import { PATH, subscriptionHarness } from './subscription-harness.js';

/** Issue #44, ADR 0119: a retried POST with the same Idempotency-Key creates one thing. */
describe('Idempotency-Key through the gateway', () => {
  const h = subscriptionHarness();
  let replica: GatewayHandle;

  beforeAll(async () => {
    replica = await startSecondGateway(h.system);
  });
  afterAll(async () => {
    await replica?.stop();
  });

  const onReplica = (tenant: TenantFixture, body: unknown, key: string) =>
    httpCall(replica.url, 'POST', PATH, {
      host: tenant.host,
      body,
      headers: { authorization: `Bearer ${tenant.token}`, 'idempotency-key': key },
    });

  it('a webhook subscription retried with one key, on either replica, is created once', async () => {
    // A tenant of its own: the test counts the tenant's subscriptions.
    const owner = await createTenantWithToken(h.system);
    const body = { url: `${h.receiverUrl}/once`, events: ['product.created'] };
    const key = { 'idempotency-key': 'f0d7c1d2-2c7b-4a55-9d1e-8f0f3b7e0a11' };

    const first = await owner.request('POST', PATH, body, key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.body.data.secret).toMatch(/^whsec_/);

    const retried = await owner.request('POST', PATH, body, key);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    // The first answer, the one showing of the signing secret included.
    expect(retried.body).toEqual(first.body);
    // The retry's own rate-limit headers, not the first answer's.
    expect(retried.headers['x-ratelimit-remaining']).not.toBe(
      first.headers['x-ratelimit-remaining'],
    );

    const elsewhere = await onReplica(owner, body, key['idempotency-key']);
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.headers['idempotent-replayed']).toBe('true');
    expect(elsewhere.body).toEqual(first.body);

    const reused = await owner.request(
      'POST',
      PATH,
      { ...body, url: `${h.receiverUrl}/other` },
      key,
    );
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ code: 'idempotency_key_reused', message: expect.any(String) });

    const list = await owner.request('GET', PATH);
    expect(list.body.total).toBe(1);
    expect(list.body.data.map((row: { id: number }) => row.id)).toEqual([first.body.data.id]);

    // Without a key, the same body is a second subscription, as before.
    expect((await owner.request('POST', PATH, body)).status).toBe(201);
    expect((await owner.request('GET', PATH)).body.total).toBe(2);
  });

  it('a personal access token retried with one key in a web session is created once', async () => {
    const owner = await createTenantWithToken(h.system);
    const session = await loginSession(owner, h.system.gatewayUrl);
    const tokens = async () =>
      (await session.request('GET', '/api/personal-access-tokens?per_page=100')).body.total;
    const before = await tokens();
    const body = { name: 'ci deploy', scopes: ['orders:read'] };
    const key = { 'idempotency-key': 'ci-deploy-token-1' };

    const first = await session.request('POST', '/api/personal-access-tokens', body, key);
    expect(first.status).toBe(201);
    const retried = await session.request('POST', '/api/personal-access-tokens', body, key);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body).toEqual(first.body);
    expect(await tokens()).toBe(before + 1);

    // A bad key is refused in the specification's 422 field envelope, and creates nothing.
    const refused = await session.request('POST', '/api/personal-access-tokens', body, {
      'idempotency-key': 'k'.repeat(256),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ 'Idempotency-Key': [expect.any(String)] });
    expect(await tokens()).toBe(before + 1);
  });
});
