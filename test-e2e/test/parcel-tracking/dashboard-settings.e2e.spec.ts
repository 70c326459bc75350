import { eventually } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { GOOD_KEY, OTHER_KEY, PREFIX, seedPendingRows } from './harness.js';
import { STATUSES, useParcelSystem } from './instance-suite.js';

const suite = useParcelSystem();
const { connected } = suite;

describe('GET /instances/{id}', () => {
  it('200 with the live dashboard: quota, 10 zero-filled statuses, errors, transit, side effects, threshold', async () => {
    const { t, instance } = await connected();
    const response = await t.request('GET', `${PREFIX}/instances/${instance.id}`);
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({
      id: instance.id,
      name: 'Parcel tracking',
      webhook_url: instance.webhook_url,
      quota: { used: 0, total: 1000, remaining: 1000 },
      quota_error: null,
      pending_registration_count: 0,
      registration_errors: [],
      last_webhook_at: null,
      last_event_at: null,
      side_effects: {
        vendor_credit_shipment_auto_delivered: true,
        inbound_shipment_arrival_alert: true,
        rma_arrival_alert: true,
      },
      quota_alert_threshold: 80,
      transit: {
        window_days: 90,
        delivered_count: 0,
        average_days_in_transit: null,
        on_time_rate: null,
        carriers: [],
      },
      carriers_seen: [],
      trends: { days: 30 },
    });
    expect(Object.keys(data.status_counts)).toEqual(STATUSES);
    expect(Object.values(data.status_counts).every((count) => count === 0)).toBe(true);
  });

  it('counts rows refused for an exhausted quota as pending: they are retried', async () => {
    const { t, instance } = await connected();
    await seedPendingRows(suite.p, t, instance.id, [
      '1Z999AA10000000001',
      '1Z999AA10000000002',
      '1Z999AA10000000003',
    ]);
    // One unit of quota left: the first number is registered, the provider refuses the others.
    suite.p.sim.addKey({ key: GOOD_KEY, quotaTotal: 1 });
    const url = `${PREFIX}/instances/${instance.id}`;
    const data = await eventually(async () => {
      const { body } = await t.request('GET', url);
      // Each refused row is released on its own: wait for both.
      if (body.data.registration_errors[0]?.count !== 2) throw new Error('not refused yet');
      return body.data;
    }, 'the registration worker to meet the exhausted quota');
    expect(data.quota).toEqual({ used: 1, total: 1, remaining: 0 });
    expect(data.registration_errors).toEqual([
      { message: expect.any(String), count: 2, last_failed_at: expect.any(String) },
    ]);
    expect(data.pending_registration_count).toBe(2);
  });

  it('still answers when the provider is down, with quota null and quota_error', async () => {
    const { t, instance } = await connected();
    suite.p.sim.failNext('getquota', { httpStatus: 500 });
    const failed = await t.request('GET', `${PREFIX}/instances/${instance.id}`);
    expect(failed.status).toBe(200);
    expect(failed.body.data.quota).toBeNull();
    expect(failed.body.data.quota_error).toEqual({
      code: 'api_error',
      message: expect.any(String),
    });
    expect(Object.keys(failed.body.data.status_counts)).toHaveLength(10);
    await suite.p.openBreaker();
    const open = await t.request('GET', `${PREFIX}/instances/${instance.id}`);
    expect(open.status).toBe(200);
    expect(open.body.data.quota_error.code).toBe('api_error');
  });

  it('404 envelope for an unknown or malformed id', async () => {
    const t = await suite.p.tenant();
    for (const id of ['999999', 'abc', '0', '-1']) {
      const response = await t.request('GET', `${PREFIX}/instances/${id}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        errors: { url: [{ message: expect.any(String), code: 'NotFound', data: [] }] },
        status: 'failure',
        message: expect.any(String),
      });
    }
  });
});

describe('PATCH /instances/{id}', () => {
  it('applies only the keys present, merges nested objects, answers with the live fields null', async () => {
    const { t, instance } = await connected();
    const response = await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
      auto_track: { rmas: false },
      side_effects: { rma_arrival_alert: false },
      quota_alert_threshold: 95,
      is_automatic_sync_enabled: false,
      auto_track_channels: { channels: { '7': { enabled: false } } },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: instance.id,
      name: 'Parcel tracking',
      is_automatic_sync_enabled: false,
      auto_track: {
        sales_order_fulfillments: true,
        inbound_shipments: true,
        warehouse_transfer_shipments: true,
        rmas: false,
        vendor_credit_shipments: true,
      },
      auto_track_channels: { default: 'all', channels: { '7': { enabled: false } } },
      webhook_url: null,
      quota: null,
      status_counts: null,
      last_webhook_at: null,
      last_event_at: null,
      side_effects: {
        vendor_credit_shipment_auto_delivered: true,
        inbound_shipment_arrival_alert: true,
        rma_arrival_alert: false,
      },
      quota_alert_threshold: 95,
      shipment_watch: {
        stalled_after_hours: 72,
        carrier_stalled_after_hours: [],
        stalled_alert: true,
        late_alert: true,
      },
      created_at: instance.created_at,
      updated_at: expect.any(String),
      quota_forecast_alert_days: 0,
    });
    const second = await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
      name: 'Renamed',
      auto_track_channels: { channels: { '7': { sub_channels: { '70': true } } } },
    });
    expect(second.body.data).toMatchObject({
      name: 'Renamed',
      quota_alert_threshold: 95,
      auto_track: { rmas: false },
      auto_track_channels: { channels: { '7': { enabled: false, sub_channels: { '70': true } } } },
    });
  });

  it('rotates the key after verifying it with the provider', async () => {
    const { t, instance } = await connected();
    expect(
      (
        await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
          api_key: 'rejected_key_1',
        })
      ).body.code,
    ).toBe('invalid_key');
    const rotated = await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
      api_key: OTHER_KEY,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.text).not.toContain(OTHER_KEY);
    expect(
      (await t.request('GET', `${PREFIX}/instances/${instance.id}`)).body.data.quota.total,
    ).toBe(50);
  });

  it('422 for out-of-bounds and wrong-typed values, 404 for an unknown id', async () => {
    const { t, instance } = await connected();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ quota_alert_threshold: 0 }, 'quota_alert_threshold'],
      [{ quota_alert_threshold: 100 }, 'quota_alert_threshold'],
      [{ quota_alert_threshold: 50.5 }, 'quota_alert_threshold'],
      [{ quota_alert_threshold: '50' }, 'quota_alert_threshold'],
      [{ name: 'n'.repeat(256) }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: false }, 'name'],
      [{ api_key: 'k'.repeat(7) }, 'api_key'],
      [{ api_key: 'k'.repeat(256) }, 'api_key'],
      [{ is_automatic_sync_enabled: 'true' }, 'is_automatic_sync_enabled'],
      [{ side_effects: { rma_arrival_alert: 0 } }, 'side_effects.rma_arrival_alert'],
      [{ auto_track: { rmas: null } }, 'auto_track.rmas'],
      [{ auto_track_channels: { default: 'sometimes' } }, 'auto_track_channels.default'],
    ];
    for (const [body, field] of cases) {
      const response = await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(Object.keys(response.body.errors)).toEqual([field]);
    }
    // Wrong types and broken bounds in one body: every field named at once, nothing applied.
    const mixed = await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
      name: 123,
      quota_alert_threshold: 100,
      is_automatic_sync_enabled: false,
    });
    expect(mixed.status).toBe(422);
    expect(Object.keys(mixed.body.errors).sort()).toEqual(['name', 'quota_alert_threshold']);
    const unchanged = await t.request('GET', `${PREFIX}/instances/${instance.id}`);
    expect(unchanged.body.data).toMatchObject({
      name: 'Parcel tracking',
      quota_alert_threshold: 80,
      is_automatic_sync_enabled: true,
    });
    expect((await t.request('PATCH', `${PREFIX}/instances/424242`, { name: 'x' })).status).toBe(
      404,
    );
  });
});
