import { eventually } from '@inventory/local-infra';
import { signBody } from '@inventory/provider-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from '../../../src/fixtures/contract.js';
import { npmRunEmit } from '../../../src/fixtures/emit.js';
import { trackingUpdatedPush as push } from '../../../src/fixtures/parcel-webhooks.js';
import { PARCEL_TRACKING_CLAIMS as CLAIMS } from './claims.js';
import {
  PROVIDER_KEY,
  UNKNOWN_HOST,
  describeGateSweeps,
  expectAllSeen,
  gateSweeps,
  startContractSystem,
  unavailableSweep,
  type ContractSystem,
} from './harness.js';

const PARCEL = '/api/integrations/parcel-tracking';
const INSTANCE = `${PARCEL}/instances/{instance}`;
const INBOUND = '/webhooks/parcel-tracking/{token}';

/**
 * Parcel-tracking instances, their trackings, activity and webhook log, and the provider's inbound
 * webhook through the generated client: every status the document lists for these operations,
 * each answer checked against the document.
 */
// In order: the last test checks what the others saw.
describe('contract: parcel tracking', { shuffle: false }, () => {
  let c: ContractSystem;
  const ids = () => ({
    instance: String(c.tenant.instanceId),
    token: c.tenant.webhookPath.split('/').pop()!,
    tracking: '1',
    webhook: '1',
    job: '00000000-0000-4000-8000-000000000000',
  });
  const instancePath = () => ({ params: { path: { instance: String(c.tenant.instanceId) } } });

  beforeAll(async () => {
    c = await startContractSystem();
  });
  afterAll(() => c?.stop());

  const sweeps = gateSweeps(() => c, CLAIMS, ids);

  it('checks a key: 200, and 422 in the field and code forms', async () => {
    const api = c.api();
    const test = (body: unknown) => api.POST(`${PARCEL}/test`, { body: body as never });
    expect((await test({ api_key: PROVIDER_KEY })).response.status).toBe(200);
    expect((await test({})).error).toMatchObject({ errors: { api_key: [expect.any(String)] } });
    expect((await test({ api_key: 'wrong_key_123' })).error).toEqual({
      message: expect.any(String),
      code: 'invalid_key',
    });
  });

  it('an instance: found 200 (none, then one), connect 201, read 200, change 200, disconnect 204', async () => {
    const other = await c.otherTenant();
    const api = contractClient(c.ledger, {
      gatewayUrl: c.r.system.gatewayUrl,
      host: other.host,
      token: other.token,
    });
    expect((await api.GET(`${PARCEL}/instances`)).data).toEqual({ data: [] });
    const created = await api.POST(`${PARCEL}/instances`, {
      body: { name: 'Parcels', api_key: PROVIDER_KEY } as never,
    });
    expect(created.response.status).toBe(201);
    const instance = (created.data as { data: { id: number } }).data.id;
    const listed = (await api.GET(`${PARCEL}/instances`)).data!.data;
    expect(listed).toEqual([
      {
        ...(created.data as { data: object }).data,
        side_effects: {
          vendor_credit_shipment_auto_delivered: true,
          inbound_shipment_arrival_alert: true,
          rma_arrival_alert: true,
        },
        quota_alert_threshold: 80,
        shipment_watch: {
          stalled_after_hours: 72,
          carrier_stalled_after_hours: [],
          stalled_alert: true,
          late_alert: true,
        },
        quota_forecast_alert_days: 0,
      },
    ]);
    const path = { params: { path: { instance: String(instance) } } };
    expect((await api.GET(INSTANCE, path)).data).toMatchObject({ data: { name: 'Parcels' } });
    const renamed = await api.PATCH(INSTANCE, { ...path, body: { name: 'Renamed' } as never });
    expect(renamed.data).toMatchObject({ data: { name: 'Renamed' } });
    // The same id asked for on the first tenant's host, with its token: not found there.
    expect((await c.api().GET(INSTANCE, path)).response.status).toBe(404);
    expect((await api.DELETE(INSTANCE, path)).response.status).toBe(204);
  });

  it('an instance’s channels, activity, trackings and webhook log: 200', async () => {
    const api = c.api();
    for (const list of ['trackable-channels', 'activity', 'trackings', 'webhooks'] as const) {
      const answer = await api.GET(`${INSTANCE}/${list}` as typeof INSTANCE, instancePath());
      expect(answer.response.status, list).toBe(200);
    }
  });

  it('one tracking: 200 for a row of the instance, 404 for an unknown one', async () => {
    await npmRunEmit(c.r.system, 'shipment.tracking_assigned', c.tenant.fixture.tenant.slug, {
      trackable_type: 'sales_order_fulfillment',
      trackable_id: 901,
      trackable_label: 'SO-901 / F1',
      trackable_url: '/sales-orders/901/fulfillments/1',
      tracking_number: '1Z999AA10123456901',
      sales_channel_id: 1,
      sub_channel_id: 11,
    });
    const api = c.api();
    const id = await eventually(async () => {
      const page = await api.GET(`${INSTANCE}/trackings`, instancePath());
      const rows = (page.data as { data: Array<{ id: number }> }).data;
      expect(rows).toHaveLength(1);
      return rows[0]!.id;
    });
    const one = (tracking: string) =>
      api.GET(`${INSTANCE}/trackings/{tracking}`, {
        params: { path: { instance: String(c.tenant.instanceId), tracking } },
      });
    const found = await one(String(id));
    expect(found.data).toMatchObject({
      data: { id, tracking_number: '1Z999AA10123456901', trackable_label: 'SO-901 / F1' },
    });
    expect((await one('999999')).response.status).toBe(404);
  });

  it('422: a second instance (code form), mistyped fields and pages (field form)', async () => {
    const api = c.api();
    const twice = await api.POST(`${PARCEL}/instances`, {
      body: { name: 'Again', api_key: PROVIDER_KEY } as never,
    });
    expect(twice.response.status).toBe(422);
    const mistyped = await api.PATCH(INSTANCE, { ...instancePath(), body: { name: 5 } as never });
    expect(mistyped.error).toEqual({
      message: 'The name field must be a string.',
      errors: { name: ['The name field must be a string.'] },
    });
    for (const list of ['activity', 'trackings', 'webhooks'] as const) {
      const answer = await api.GET(
        `${INSTANCE}/${list}` as typeof INSTANCE,
        {
          params: { path: { instance: String(c.tenant.instanceId) }, query: { page: 0 } },
        } as never,
      );
      expect(answer.error, list).toMatchObject({ errors: { page: [expect.any(String)] } });
    }
  });

  it('404 for an instance that is not the tenant’s', async () => {
    const api = c.api();
    const unknown = { params: { path: { instance: '999999' } } };
    expect((await api.GET(INSTANCE, unknown)).response.status).toBe(404);
    expect(
      (await api.PATCH(INSTANCE, { ...unknown, body: { name: 'x' } as never })).response.status,
    ).toBe(404);
    expect((await api.DELETE(INSTANCE, unknown)).response.status).toBe(404);
    for (const list of ['trackable-channels', 'activity', 'trackings', 'webhooks'] as const) {
      const answer = await api.GET(`${INSTANCE}/${list}` as typeof INSTANCE, unknown);
      expect(answer.response.status, list).toBe(404);
    }
  });

  it('the inbound webhook: 200 signed, 401 forged, 422 unreadable, 404 unknown token or host', async () => {
    const api = c.api({ token: undefined });
    const body = push('1Z999AA10123456784');
    const send = (token: string, sign: string, client = api) =>
      client.POST(INBOUND, {
        params: { path: { token } },
        headers: { sign },
        body: body as never,
        bodySerializer: (raw: string) => raw,
      } as never);
    const accepted = await send(ids().token, signBody(body, PROVIDER_KEY));
    expect(accepted.response.status).toBe(200);
    const forged = await send(ids().token, 'f'.repeat(64));
    expect(forged.error).toEqual({ message: expect.stringContaining('signature') });
    const unreadable = await api.POST(INBOUND, {
      params: { path: { token: ids().token } },
      body: {} as never,
    });
    expect(unreadable.response.status).toBe(422);
    expect((await send('wh_unknown', signBody(body, PROVIDER_KEY))).response.status).toBe(404);
    const elsewhere = contractClient(c.ledger, {
      gatewayUrl: c.r.system.gatewayUrl,
      host: UNKNOWN_HOST,
    });
    expect((await send(ids().token, 'x', elsewhere)).response.status).toBe(404);
  });

  it('reprocessing from the webhook log: one row 202, a processed or unreadable one 422, a job 202 and its progress 200', async () => {
    const api = c.api();
    const number = '1Z999AA10123456799';
    const body = push(number);
    const pushed = await c.api({ token: undefined }).POST(INBOUND, {
      params: { path: { token: ids().token } },
      headers: { sign: signBody(body, PROVIDER_KEY) },
      body: body as never,
      bodySerializer: (raw: string) => raw,
    } as never);
    expect(pushed.response.status).toBe(200);
    const rowOf = (query: Record<string, string>) =>
      eventually(async () => {
        const page = await api.GET(`${INSTANCE}/webhooks`, {
          params: { path: { instance: String(c.tenant.instanceId) }, query },
        } as never);
        const rows = (page.data as unknown as { data: Array<{ id: number; result: string }> }).data;
        expect(rows.length).toBeGreaterThan(0);
        return rows[0]!;
      });
    const ignored = await rowOf({ 'filter[tracking_number]': number });
    expect(ignored.result).toBe('ignored');
    const one = (webhook: number) =>
      api.POST(`${INSTANCE}/webhooks/{webhook}/reprocess`, {
        params: { path: { instance: String(c.tenant.instanceId), webhook: String(webhook) } },
      } as never);
    expect((await one(ignored.id)).response.status).toBe(202);
    // The forged push was stored failed with nothing to apply.
    const unreadable = await rowOf({ 'filter[result]': 'failed' });
    expect((await one(unreadable.id)).error).toEqual({
      message: expect.any(String),
      code: 'webhook_not_reprocessable',
    });
    const started = await api.POST(`${INSTANCE}/webhooks/reprocess`, {
      params: {
        path: { instance: String(c.tenant.instanceId) },
        query: { 'filter[result]': 'failed' },
      },
    } as never);
    expect(started.response.status).toBe(202);
    const job = (started.data as unknown as { data: { id: string } }).data.id;
    const progress = await api.GET(`${INSTANCE}/webhooks/reprocess-jobs/{job}`, {
      params: { path: { instance: String(c.tenant.instanceId), job } },
    } as never);
    expect(progress.data).toMatchObject({ data: { id: job } });
    const refused = await api.POST(`${INSTANCE}/webhooks/reprocess`, {
      params: {
        path: { instance: String(c.tenant.instanceId) },
        query: { 'filter[result]': 'processed' },
      },
    } as never);
    expect(refused.error).toMatchObject({ errors: expect.any(Object) });
  });

  describeGateSweeps(sweeps);

  it('503 when parcel-tracking, webhook-ingest and activity are down', async () => {
    await unavailableSweep(
      c,
      CLAIMS,
      ids(),
      ['parcel-tracking', 'webhook-ingest', 'activity'],
      () => ({ token: c.tenant.fixture.token }),
      [],
      {
        postIntegrationsParcelTrackingTest: { body: { api_key: PROVIDER_KEY } },
        postIntegrationsParcelTrackingInstances: { body: { name: 'P', api_key: PROVIDER_KEY } },
        patchIntegrationsParcelTrackingInstancesByInstance: { body: { name: 'P' } },
        postWebhooksParcelTrackingByToken: {
          body: JSON.parse(push('1Z999AA10123456786')),
          headers: { sign: signBody(push('1Z999AA10123456786'), PROVIDER_KEY) },
        },
      },
    );
  });

  it('saw every (operation, status) pair it claims', () => expectAllSeen(c.ledger, CLAIMS));
});
