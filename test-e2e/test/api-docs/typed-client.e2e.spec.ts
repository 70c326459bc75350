import type { ApiClient } from '@inventory/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractLedger, contractClient } from '../../src/fixtures/contract.js';
import { createTenantWithToken, type TenantFixture } from '../../src/fixtures/tenants.js';
import { startSystem, type RunningSystem } from '../../src/system.js';

/**
 * The generated client against the running system: each answer must be one the document lists
 * for its operation, body and headers included (a drift between document and behaviour fails
 * here). Every operation and status is exercised by contract/*.e2e.spec.ts.
 */
describe('the typed API client (libs/api-client) against the whole system', () => {
  let system: RunningSystem;
  let tenant: TenantFixture;
  const answered: string[] = [];

  const ledger = new ContractLedger();

  /**
   * A client on the tenant's host whose every answer is checked against the document (status,
   * body schema, content type, headers: src/fixtures/contract.ts).
   */
  const clientFor = (token?: string): ApiClient => {
    const api = contractClient(ledger, { gatewayUrl: system.gatewayUrl, host: tenant.host, token });
    api.use({
      onResponse({ schemaPath, request, response }) {
        answered.push(`${request.method} ${schemaPath} ${response.status}`);
        return undefined;
      },
    });
    return api;
  };

  beforeAll(async () => {
    // A loopback receiver, as `npm start` allows for local trials.
    system = await startSystem({
      serviceEnv: {
        'outbound-delivery': { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_LOOPBACK: 'true' },
      },
    });
    tenant = await createTenantWithToken(system);
  });
  afterAll(() => system?.stop());

  it('reads the user and the products (200)', async () => {
    const api = clientFor(tenant.token);
    const user = await api.GET('/api/user');
    expect(user.response.status).toBe(200);
    expect(user.data).toMatchObject({ data: { email: expect.any(String) } });
    const products = await api.GET('/api/v2/products');
    expect(products.response.status).toBe(200);
    expect(products.data).toMatchObject({ data: [] });
  });

  it('writes with the documented success statuses: 201 on create, 202 on a test ping, 204 on delete', async () => {
    const api = clientFor(tenant.token);
    const created = await api.POST('/api/webhook-subscriptions', {
      body: { url: 'http://127.0.0.1:9/typed-client', events: ['product.created'] } as never,
    });
    expect(created.response.status).toBe(201);
    const id = String((created.data as { data: { id: number } }).data.id);
    const ping = await api.POST('/api/webhook-subscriptions/{id}/test', {
      params: { path: { id } },
    });
    expect(ping.response.status).toBe(202);
    const removed = await api.DELETE('/api/webhook-subscriptions/{id}', {
      params: { path: { id } },
    });
    expect(removed.response.status).toBe(204);
    expect(answered).toEqual(
      expect.arrayContaining([
        'POST /api/webhook-subscriptions 201',
        'POST /api/webhook-subscriptions/{id}/test 202',
        'DELETE /api/webhook-subscriptions/{id} 204',
      ]),
    );
  });

  it('answers the documented errors: 401 without a token, 404 for an unknown id, 422 for a bad query', async () => {
    expect((await clientFor().GET('/api/user')).response.status).toBe(401);
    const api = clientFor(tenant.token);
    const unknown = await api.GET('/api/webhook-subscriptions/{id}', {
      params: { path: { id: '999999' } },
    });
    expect(unknown.response.status).toBe(404);
    const badQuery = await api.GET('/api/v2/products', {
      params: { query: { per_page: 0 } as never },
    });
    expect(badQuery.response.status).toBe(422);
    expect(answered).toEqual(
      expect.arrayContaining([
        'GET /api/user 401',
        'GET /api/webhook-subscriptions/{id} 404',
        'GET /api/v2/products 422',
      ]),
    );
  });
});
