import { seedSalesChannels } from '@inventory/parcel-tracking/dev';
import { signBody } from '@inventory/provider-sim';
import { eventually } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall } from '../../src/fixtures/http.js';
import { GOOD_KEY, PREFIX, startParcelSystem, validCreate, type ParcelSystem } from './harness.js';

let p: ParcelSystem;
beforeAll(async () => {
  p = await startParcelSystem();
}, 120_000);
afterAll(() => p?.stop());

describe('POST /webhooks/parcel-tracking/{token}', () => {
  it('stores a signed provider webhook for a known token (200, no credential) and GET shows last_webhook_at', async () => {
    const t = await p.tenant();
    const created = await t.request('POST', `${PREFIX}/instances`, validCreate());
    const path = new URL(created.body.data.webhook_url).pathname;
    const raw = JSON.stringify({
      event: 'TRACKING_UPDATED',
      data: {
        number: '1Z999AA10123456784',
        carrier: 100002,
        track_info: { latest_status: { status: 'InTransit', sub_status: 'InTransit_PickedUp' } },
      },
    });
    const response = await httpCall(p.system.gatewayUrl, 'POST', path, {
      host: t.host,
      rawBody: raw,
      headers: { sign: signBody(raw, GOOD_KEY) },
    });
    expect(response.status).toBe(200);
    const stored = await p.system.services['webhook-ingest']!.mongo.collection(
      'webhook_events',
    ).findOne({ tenant_id: t.tenant.id });
    expect(stored!.raw_body).toBe(raw);
    const dashboard = await t.request('GET', `${PREFIX}/instances/${created.body.data.id}`);
    expect(new Date(dashboard.body.data.last_webhook_at).getTime()).toBeGreaterThan(
      Date.now() - 60_000,
    );
  });

  it('404 envelope for an unknown or malformed token, whatever the body', async () => {
    const t = await p.tenant();
    for (const token of [`wh_${'x'.repeat(43)}`, 'wh_short', 'not-a-token']) {
      const response = await t.anonymous('POST', `/webhooks/parcel-tracking/${token}`, {
        event: 'TRACKING_UPDATED',
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        errors: { url: [{ message: expect.any(String), code: 'NotFound', data: [] }] },
        status: 'failure',
        message: expect.any(String),
      });
      expect(response.text).not.toContain(token.startsWith('wh_') ? token : '\u0000');
    }
  });
});

describe('GET /instances/{id}/trackable-channels', () => {
  it('lists the tenant’s connected sales channels with sub-channels, from sales-channel events', async () => {
    const t = await p.tenant();
    const other = await p.tenant();
    const created = await t.request('POST', `${PREFIX}/instances`, validCreate());
    const id = created.body.data.id;
    expect((await t.request('GET', `${PREFIX}/instances/${id}/trackable-channels`)).body).toEqual({
      data: [],
    });
    await seedSalesChannels({ natsUrl: p.system.infra.natsUrl, tenantId: t.tenant.id });
    const response = await eventually(async () => {
      const answer = await t.request('GET', `${PREFIX}/instances/${id}/trackable-channels`);
      expect(answer.body.data).toHaveLength(3);
      return answer;
    });
    expect(response.status).toBe(200);
    expect(response.body.data[1]).toEqual({
      id: 2,
      name: 'Amazon US',
      platform: 'amazon',
      icon_url: expect.any(String),
      sub_channels: [
        { id: 201, name: 'Fulfilled by Amazon (FBA)', external_identifier: 'AFN' },
        { id: 202, name: 'Fulfilled by Merchant (FBM)', external_identifier: 'MFN' },
      ],
    });
    expect(response.body.data[2].sub_channels).toEqual([]);
    // Another tenant's instance sees none of them.
    const otherInstance = await other.request('POST', `${PREFIX}/instances`, validCreate());
    expect(
      (
        await other.request(
          'GET',
          `${PREFIX}/instances/${otherInstance.body.data.id}/trackable-channels`,
        )
      ).body,
    ).toEqual({ data: [] });
    expect((await t.request('GET', `${PREFIX}/instances/999999/trackable-channels`)).status).toBe(
      404,
    );
  });
});
