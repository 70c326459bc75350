import { alertEntry, alertRaised } from '@inventory/events';
import { waitFor } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from '../../../src/fixtures/contract.js';
import { PLATFORM_CLAIMS as CLAIMS } from './claims.js';
import {
  accessOf,
  describeGateSweeps,
  expectAllSeen,
  gateSweeps,
  startContractSystem,
  unavailableSweep,
  UNKNOWN_HOST,
  type ContractSystem,
} from './harness.js';

const SUBSCRIPTIONS = '/api/webhook-subscriptions';

/**
 * Health, alerts, outbound webhook subscriptions and the catalog through the generated client:
 * every status the document lists for these operations, each answer checked against the document.
 */
// In order: the last test checks what the others saw.
describe('contract: health, alerts, webhook subscriptions, catalog', { shuffle: false }, () => {
  let c: ContractSystem;
  let alertId: string;
  let deliveryId: string;
  let recoverJobId: string;
  const ids = () => ({
    id: c.tenant.subscriptionId,
    delivery_id: deliveryId ?? '00000000-0000-4000-8000-000000000000',
    job_id: recoverJobId ?? '00000000-0000-4000-8000-000000000000',
  });

  beforeAll(async () => {
    c = await startContractSystem();
    await c.r.system.services.activity!.publisher.publish(
      alertRaised,
      alertEntry({
        tenantId: c.tenant.fixture.tenant.id,
        key: 'contract-alert',
        kind: 'quota_warning',
        priority: 'normal',
        title: 'Quota at 80%',
        message: 'The provider quota is 80% used.',
        properties: { integration_instance_id: c.tenant.instanceId },
      }).event,
    );
    alertId = await waitFor(async () => {
      const { data } = await c.session().GET('/api/alerts');
      const first = (data as { data?: Array<{ id: number }> } | undefined)?.data?.[0];
      return first ? String(first.id) : undefined;
    }, 'the raised alert listed');
  });
  afterAll(() => c?.stop());

  const sweeps = gateSweeps(
    () => c,
    CLAIMS,
    () => ({ ...ids(), id: ids().id }),
  );

  it('health: both probes answer 200 with their documented bodies', async () => {
    const api = c.api();
    expect((await api.GET('/healthz')).data).toEqual({ status: 'ok' });
    expect((await api.GET('/readyz')).data).toMatchObject({ status: 'ready' });
  });

  it('webhook subscriptions: 201, 200, 202 and 204 with realistic bodies', async () => {
    const api = c.api();
    const created = await api.POST(SUBSCRIPTIONS, {
      body: { url: c.r.receiverUrl, events: ['product.created'], description: 'ERP' } as never,
    });
    expect(created.response.status).toBe(201);
    const id = String((created.data as { data: { id: number } }).data.id);
    const path = { params: { path: { id } } };
    expect((await api.GET(SUBSCRIPTIONS)).response.status).toBe(200);
    expect((await api.GET(`${SUBSCRIPTIONS}/{id}`, path)).data).toMatchObject({
      data: { url: c.r.receiverUrl },
    });
    const patched = await api.PATCH(`${SUBSCRIPTIONS}/{id}`, {
      ...path,
      body: { description: 'ERP (renamed)' } as never,
    });
    expect(patched.data).toMatchObject({ data: { description: 'ERP (renamed)' } });
    const recovered = await api.POST(`${SUBSCRIPTIONS}/{id}/recover`, {
      ...path,
      body: { since: '2026-01-01T00:00:00Z' } as never,
    });
    expect(recovered.response.status).toBe(202);
    recoverJobId = (recovered.data as { data: { id: string } }).data.id;
    const job = await api.GET(`${SUBSCRIPTIONS}/{id}/recover/{job_id}`, {
      params: { path: { id, job_id: recoverJobId } },
    });
    expect(job.data).toMatchObject({ data: { id: recoverJobId, found: 0 } });
    const noSince = await api.POST(`${SUBSCRIPTIONS}/{id}/recover`, {
      ...path,
      body: { since: 'yesterday' } as never,
    });
    expect(noSince.error).toEqual({
      message: 'The since field must be a valid date.',
      errors: { since: ['The since field must be a valid date.'] },
    });
    const pausedByHand = await api.POST(`${SUBSCRIPTIONS}/{id}/pause`, path);
    expect(pausedByHand.data).toMatchObject({
      data: { paused_at: expect.any(String), held_count: 0 },
    });
    const resumed = await api.POST(`${SUBSCRIPTIONS}/{id}/resume`, path);
    expect(resumed.data).toMatchObject({ data: { paused_at: null } });
    const health = await api.GET(`${SUBSCRIPTIONS}/{id}/health`, path);
    expect(health.data).toMatchObject({
      data: { last_24h: { attempts: 0, success_rate: null }, last_7d: { last_failure: null } },
    });
    const rotated = await api.POST(`${SUBSCRIPTIONS}/{id}/rotate-secret`, path);
    expect(rotated.data).toMatchObject({ data: { secret: expect.any(String) } });
    const ping = await api.POST(`${SUBSCRIPTIONS}/{id}/test`, path);
    expect(ping.response.status).toBe(202);
    deliveryId = (ping.data as { data: { delivery_id: string } }).data.delivery_id;
    const log = await api.GET(`${SUBSCRIPTIONS}/{id}/deliveries`, path);
    expect(log.response.status).toBe(200);
    const redelivered = await api.POST(`${SUBSCRIPTIONS}/{id}/deliveries/{delivery_id}/redeliver`, {
      params: { path: { id, delivery_id: deliveryId } },
    });
    expect(redelivered.response.status).toBe(202);
    const oneDelivery = await api.GET(`${SUBSCRIPTIONS}/{id}/deliveries/{delivery_id}`, {
      params: { path: { id, delivery_id: deliveryId } },
    });
    expect(oneDelivery.data).toMatchObject({
      data: { delivery_id: deliveryId, event: 'ping', payload: expect.any(String) },
    });

    // 422, field form: a mistyped field, an unknown delivery status.
    const mistyped = await api.PATCH(`${SUBSCRIPTIONS}/{id}`, {
      ...path,
      body: { url: 5 } as never,
    });
    expect(mistyped.error).toEqual({
      message: 'The url field must be a string.',
      errors: { url: ['The url field must be a string.'] },
    });
    const badStatus = await api.GET(`${SUBSCRIPTIONS}/{id}/deliveries`, {
      params: { path: { id }, query: { status: 'nope' } },
    } as never);
    expect(badStatus.response.status).toBe(422);
    // 422, code form: pings and redeliveries of a paused subscription are refused by rule.
    await api.PATCH(`${SUBSCRIPTIONS}/{id}`, { ...path, body: { is_active: false } as never });
    const inactive = { code: 'subscription_inactive', message: expect.any(String) };
    expect((await api.POST(`${SUBSCRIPTIONS}/{id}/test`, path)).error).toEqual(inactive);
    const paused = await api.POST(`${SUBSCRIPTIONS}/{id}/deliveries/{delivery_id}/redeliver`, {
      params: { path: { id, delivery_id: deliveryId } },
    });
    expect(paused.error).toEqual(inactive);

    expect((await api.DELETE(`${SUBSCRIPTIONS}/{id}`, path)).response.status).toBe(204);
  });

  it('webhook event types: 200 for the catalog and its AsyncAPI document', async () => {
    const types = await c.api().GET('/api/webhook-event-types');
    expect(types.response.status).toBe(200);
    expect((types.data as { data: unknown[] }).data).toHaveLength(11);
    const asyncApi = await contractClient(c.ledger, {
      gatewayUrl: c.r.system.gatewayUrl,
      host: UNKNOWN_HOST,
    }).GET('/api/asyncapi.json');
    expect(asyncApi.data).toMatchObject({ asyncapi: '3.0.0' });
  });

  it('alerts: 200 for the list, marking one read and marking all read', async () => {
    const api = c.session();
    const list = await api.GET('/api/alerts');
    expect(list.data).toMatchObject({ unread_count: 1, data: [{ title: 'Quota at 80%' }] });
    const read = await api.POST('/api/alerts/{id}/read', { params: { path: { id: alertId } } });
    expect(read.response.status).toBe(200);
    expect((await api.POST('/api/alerts/read-all')).response.status).toBe(200);
  });

  it('catalog: 200 for products and purchase invoices', async () => {
    const api = c.api();
    expect((await api.GET('/api/v2/products')).data).toMatchObject({ data: [] });
    expect((await api.GET('/api/purchase-invoices')).data).toMatchObject({ data: [] });
  });

  it('404 for an unknown or another tenant’s id', async () => {
    const api = c.api();
    const unknown = { params: { path: { id: '999999' } } };
    expect((await api.GET(`${SUBSCRIPTIONS}/{id}`, unknown)).response.status).toBe(404);
    const other = await c.otherTenant();
    const theirs = await other.request('POST', SUBSCRIPTIONS, {
      url: c.r.receiverUrl,
      events: ['product.created'],
    });
    const theirId = { params: { path: { id: String(theirs.body.data.id) } } };
    expect((await api.GET(`${SUBSCRIPTIONS}/{id}`, theirId)).response.status).toBe(404);
    expect((await api.DELETE(`${SUBSCRIPTIONS}/{id}`, theirId)).response.status).toBe(404);
    expect((await api.GET(`${SUBSCRIPTIONS}/{id}/health`, theirId)).response.status).toBe(404);
    expect((await api.GET(`${SUBSCRIPTIONS}/{id}/health`, unknown)).response.status).toBe(404);
    const unknownDelivery = {
      params: { path: { id: '999999', delivery_id: '00000000-0000-4000-8000-000000000000' } },
    };
    expect(
      (await api.GET(`${SUBSCRIPTIONS}/{id}/deliveries/{delivery_id}`, unknownDelivery)).response
        .status,
    ).toBe(404);
    expect((await c.session().POST('/api/alerts/{id}/read', unknown)).response.status).toBe(404);
  });

  it('422 in the field form for bad input', async () => {
    const api = c.api();
    const bad = await api.POST(SUBSCRIPTIONS, {
      body: { url: c.r.receiverUrl, events: ['order.exploded'] } as never,
    });
    expect(bad.response.status).toBe(422);
    expect(bad.error).toMatchObject({ errors: { 'events.0': [expect.any(String)] } });
    const badPage = { params: { query: { page: 'abc' } } } as never;
    expect((await api.GET(SUBSCRIPTIONS, badPage)).response.status).toBe(422);
    expect((await c.session().GET('/api/alerts', badPage)).response.status).toBe(422);
    expect((await api.GET('/api/v2/products', badPage)).response.status).toBe(422);
    expect((await api.GET('/api/purchase-invoices', badPage)).response.status).toBe(422);
  });

  describeGateSweeps(sweeps);

  it('503 when the owning service is down', async () => {
    await unavailableSweep(
      c,
      CLAIMS,
      ids(),
      ['outbound-delivery', 'activity', 'catalog'],
      (operation) =>
        accessOf(operation) === 'session'
          ? { session: c.tenant.session }
          : { token: c.tenant.fixture.token },
      ['getReadyz', 'getWebhookEventTypes'],
      { postWebhookSubscriptionsByIdRecover: { body: { since: '2026-01-01T00:00:00Z' } } },
    );
  });

  it('503 for the event catalog when identity (the token check) is down', async () => {
    const others = Object.keys(CLAIMS).filter((id) => id !== 'getWebhookEventTypes');
    await unavailableSweep(
      c,
      CLAIMS,
      ids(),
      ['identity'],
      () => ({ token: c.tenant.fixture.token }),
      others,
    );
  });

  it('readiness answers 503 on a gateway whose identity service is down', async () => {
    const gateway = await c.gatewayWithout(['identity']);
    const api = contractClient(c.ledger, { gatewayUrl: gateway.url, host: UNKNOWN_HOST });
    const answer = await api.GET('/readyz');
    expect(answer.response.status).toBe(503);
    expect(answer.error).toMatchObject({ status: 'not_ready', checks: { identity: false } });
  });

  it('saw every (operation, status) pair it claims', () => expectAllSeen(c.ledger, CLAIMS));
});
