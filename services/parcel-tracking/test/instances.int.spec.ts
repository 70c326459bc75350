import { status } from '@grpc/grpc-js';
import type { CreateInstanceRequest } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  activityEvents,
  as,
  eventually,
  failureOf,
  GOOD_KEY,
  OTHER_KEY,
  startHarness,
  type Harness,
} from './harness.js';

let h: Harness;
let tenantSeq = 0;
const newTenant = () => `tenant-${++tenantSeq}-${Date.now()}`;

const create = (tenant: string, request: Partial<CreateInstanceRequest> = {}) =>
  as(tenant, () =>
    h.client.call.createInstance({ name: 'Parcel tracking', api_key: GOOD_KEY, ...request }),
  );

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.stop());
beforeEach(() => {
  h.sim.reset();
  h.service.deps.provider.breaker.close();
});

describe('TestApiKey', () => {
  it('returns the live quota of a good key and saves nothing', async () => {
    const tenant = newTenant();
    expect(await as(tenant, () => h.client.call.testApiKey({ api_key: GOOD_KEY }))).toEqual({
      quota: { used: 0, total: 1000, remaining: 1000 },
    });
    expect(await h.service.deps.instances.model.countDocuments({ tenant_id: tenant })).toBe(0);
  });

  it('classifies a rejected key as invalid_key, with HTTP 200 or 401 from the provider', async () => {
    for (const style of ['http200', 'http401'] as const) {
      h.sim.setAuthStyle(style);
      const failure = await failureOf(
        as(newTenant(), () => h.client.call.testApiKey({ api_key: 'wrong_key_123' })),
      );
      expect(failure).toMatchObject({ code: status.FAILED_PRECONDITION, reason: 'invalid_key' });
    }
  });

  it('classifies 429, 5xx and other negative codes as api_error', async () => {
    for (const spec of [{ httpStatus: 429 }, { httpStatus: 503 }, { code: -18010013 }]) {
      h.sim.failNext('getquota', spec);
      const failure = await failureOf(
        as(newTenant(), () => h.client.call.testApiKey({ api_key: GOOD_KEY })),
      );
      expect(failure).toMatchObject({ code: status.FAILED_PRECONDITION, reason: 'api_error' });
    }
  });

  it('answers api_error at once while the breaker is open', async () => {
    h.service.deps.provider.breaker.open();
    const failure = await failureOf(
      as(newTenant(), () => h.client.call.testApiKey({ api_key: GOOD_KEY })),
    );
    expect(failure).toMatchObject({
      reason: 'api_error',
      message: expect.stringMatching(/unavailable/),
    });
  });

  it('validates the key length: missing, empty, 7 and 256 characters', async () => {
    for (const apiKey of [undefined, '', 'a'.repeat(7), 'a'.repeat(256)]) {
      const failure = await failureOf(
        as(newTenant(), () => h.client.call.testApiKey({ api_key: apiKey })),
      );
      expect(failure.code).toBe(status.INVALID_ARGUMENT);
      expect(failure.fieldViolations.map((v) => v.field)).toEqual(['api_key']);
    }
  });
});

describe('CreateInstance', () => {
  it('creates the singleton with defaults, a wh_ webhook path, an encrypted key and a connected activity', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant, {
      auto_track: { rmas: false },
      auto_track_channels: {
        default_scope: 'none',
        channels: { '5': { enabled: true, sub_channels: { '51': false } } },
      },
    });
    expect(instance).toMatchObject({
      name: 'Parcel tracking',
      is_automatic_sync_enabled: true,
      auto_track: {
        sales_order_fulfillments: true,
        inbound_shipments: true,
        warehouse_transfer_shipments: true,
        rmas: false,
        vendor_credit_shipments: true,
      },
      auto_track_channels: {
        default_scope: 'none',
        channels: { '5': { enabled: true, sub_channels: { '51': false } } },
      },
      side_effects: {
        vendor_credit_shipment_auto_delivered: true,
        inbound_shipment_arrival_alert: true,
        rma_arrival_alert: true,
      },
      quota_alert_threshold: 80,
    });
    expect(instance!.webhook_path).toMatch(/^\/webhooks\/parcel-tracking\/wh_[A-Za-z0-9_-]{32,}$/);
    const stored = await h.service.deps.instances.model.findOne({ tenant_id: tenant }).lean();
    expect(JSON.stringify(stored)).not.toContain(GOOD_KEY);
    expect(h.service.deps.secrets.decrypt(stored!.api_key_encrypted)).toBe(GOOD_KEY);
    const token = instance!.webhook_path.split('/').pop()!;
    expect(await h.ingest.stores.tokens.resolve(token)).toMatchObject({
      tenant_id: tenant,
      integration_instance_id: instance!.id,
      provider: 'parcel-tracking',
    });
    const events = await eventually(async () => {
      const found = await activityEvents(h, tenant);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(events[0]).toMatchObject({
      event: 'connected',
      subject_type: 'integration_instance',
      subject_id: instance!.id,
      causer_id: 'user-1',
    });
    expect(JSON.stringify(events)).not.toContain(GOOD_KEY);
  });

  it('refuses a second instance, and lets only one of two concurrent creates win', async () => {
    const tenant = newTenant();
    const results = await Promise.allSettled([
      create(tenant, { name: 'one' }),
      create(tenant, { name: 'two' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((await failureOf(Promise.reject(rejected.reason))).code).toBe(status.ALREADY_EXISTS);
    expect(await h.service.deps.instances.model.countDocuments({ tenant_id: tenant })).toBe(1);
    expect((await failureOf(create(tenant))).code).toBe(status.ALREADY_EXISTS);
  });

  it('refuses a key the provider rejects (invalid_key) and a provider failure (api_error), saving nothing', async () => {
    const tenant = newTenant();
    expect(await failureOf(create(tenant, { api_key: 'not_a_real_key' }))).toMatchObject({
      code: status.FAILED_PRECONDITION,
      reason: 'invalid_key',
    });
    h.sim.failNext('getquota', { httpStatus: 500 });
    expect(await failureOf(create(tenant))).toMatchObject({
      code: status.FAILED_PRECONDITION,
      reason: 'api_error',
    });
    h.service.deps.provider.breaker.open();
    expect(await failureOf(create(tenant))).toMatchObject({ reason: 'api_error' });
    expect(await h.service.deps.instances.model.countDocuments({ tenant_id: tenant })).toBe(0);
  });

  it('validates every field and reports them all at once', async () => {
    const failure = await failureOf(
      create(newTenant(), {
        name: 'x'.repeat(256),
        api_key: 'short',
        auto_track_channels: { default_scope: 'some', channels: { abc: { sub_channels: {} } } },
      }),
    );
    expect(failure.code).toBe(status.INVALID_ARGUMENT);
    expect(failure.fieldViolations.map((v) => v.field)).toEqual([
      'name',
      'api_key',
      'auto_track_channels.default',
      'auto_track_channels.channels.abc',
    ]);
    const missing = await failureOf(as(newTenant(), () => h.client.call.createInstance({})));
    expect(missing.fieldViolations).toEqual([
      { field: 'name', description: 'The name field is required.' },
      { field: 'api_key', description: 'The api key field is required.' },
    ]);
    const blank = await failureOf(create(newTenant(), { name: '   ', api_key: 'a'.repeat(256) }));
    expect(blank.fieldViolations.map((v) => v.description)).toEqual([
      'The name field is required.',
      'The api key field must not be greater than 255 characters.',
    ]);
    // 255 characters is within bounds.
    expect((await create(newTenant(), { name: 'n'.repeat(255) })).instance!.name).toHaveLength(255);
  });
});

describe('GetInstance', () => {
  it('returns the live quota and a zero-filled dashboard for a new instance', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const { dashboard } = await as(tenant, () => h.client.call.getInstance({ id: instance!.id }));
    expect(dashboard).toEqual({
      quota: { used: 0, total: 1000, remaining: 1000 },
      status_counts: {
        pending: 0,
        info_received: 0,
        in_transit: 0,
        available_for_pickup: 0,
        out_for_delivery: 0,
        delivered: 0,
        delivery_failure: 0,
        exception: 0,
        expired: 0,
        not_found: 0,
      },
      pending_registration_count: 0,
      registration_errors: [],
      transit: {
        window_days: 90,
        overall: { delivered_count: 0, with_estimate_count: 0, on_time_count: 0 },
        carriers: [],
      },
    });
  });

  it('computes counts, pending registrations, grouped errors, last event, last webhook and transit from real rows', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    const base = {
      tenant_id: tenant,
      integration_instance_id: id,
      trackable_type: 'sales_order_fulfillment',
      trackable_id: 1,
    };
    const day = 24 * 3600 * 1000;
    const now = Date.now();
    const { trackings } = h.service.deps;
    await trackings.insert({ ...base, tracking_number: 'P1', delivery_status: 'pending' });
    await trackings.insert({
      ...base,
      tracking_number: 'P2',
      delivery_status: 'pending',
      registration_error: 'Carrier cannot be detected.',
      registration_failed_at: new Date(now - day),
    });
    await trackings.insert({
      ...base,
      tracking_number: 'P3',
      delivery_status: 'pending',
      registration_error: 'Carrier cannot be detected.',
      registration_failed_at: new Date(now - 2 * day),
    });
    await trackings.insert({
      ...base,
      tracking_number: 'P4',
      delivery_status: 'pending',
      registration_error: 'Quota exhausted.',
      registration_failed_at: new Date(now - 3 * day),
    });
    await trackings.insert({
      ...base,
      tracking_number: 'T1',
      delivery_status: 'in_transit',
      registered_at: new Date(now - 2 * day),
      last_event_at: new Date(now - 3600_000),
    });
    await trackings.insert({
      ...base,
      tracking_number: 'D1',
      delivery_status: 'delivered',
      carrier_code: 100002,
      carrier_name: 'UPS',
      registered_at: new Date(now - 5 * day),
      picked_up_at: new Date(now - 4 * day),
      delivered_at: new Date(now - 2 * day),
      estimated_delivery_at: new Date(now - 2 * day),
      last_event_at: new Date(now - 2 * day),
    });
    await trackings.insert({
      ...base,
      tracking_number: 'D2',
      delivery_status: 'delivered',
      carrier_code: 100002,
      carrier_name: 'UPS',
      registered_at: new Date(now - 200 * day),
      picked_up_at: new Date(now - 199 * day),
      delivered_at: new Date(now - 190 * day),
    });
    // Another tenant's row with the same instance id must not count.
    await trackings.insert({
      ...base,
      tenant_id: 'someone-else',
      tracking_number: 'X1',
      delivery_status: 'exception',
    });
    const token = instance!.webhook_path.split('/').pop()!;
    await h.ingest.stores.inbox.store({
      tenant_id: tenant,
      integration_instance_id: id,
      provider: 'parcel-tracking',
      event_type: 'TRACKING_UPDATED',
      tracking_number: 'T1',
      payload: {},
      raw_body: '{}',
      content_type: 'application/json',
      signature: null,
    });
    expect(token.startsWith('wh_')).toBe(true);

    const { dashboard } = await as(tenant, () => h.client.call.getInstance({ id }));
    expect(dashboard!.status_counts).toMatchObject({
      pending: 4,
      in_transit: 1,
      delivered: 2,
      exception: 0,
    });
    expect(dashboard!.pending_registration_count).toBe(1);
    expect(dashboard!.registration_errors).toEqual([
      { message: 'Carrier cannot be detected.', count: 2, last_failed_at: new Date(now - day) },
      { message: 'Quota exhausted.', count: 1, last_failed_at: new Date(now - 3 * day) },
    ]);
    expect(dashboard!.last_event_at).toEqual(new Date(now - 3600_000));
    expect(dashboard!.last_webhook_at).toBeInstanceOf(Date);
    expect(dashboard!.transit).toEqual({
      window_days: 90,
      overall: {
        delivered_count: 1,
        average_days_in_transit: 2,
        with_estimate_count: 1,
        on_time_count: 1,
        on_time_rate: 100,
      },
      carriers: [
        {
          carrier_code: 100002,
          carrier_name: 'UPS',
          stats: {
            delivered_count: 1,
            average_days_in_transit: 2,
            with_estimate_count: 1,
            on_time_count: 1,
            on_time_rate: 100,
          },
        },
      ],
    });
  });

  it('still answers when the provider fails, with the failure in quota_error', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    h.sim.failNext('getquota', { httpStatus: 503 });
    const failed = await as(tenant, () => h.client.call.getInstance({ id: instance!.id }));
    expect(failed.dashboard!.quota).toBeUndefined();
    expect(failed.dashboard!.quota_error).toMatchObject({ code: 'api_error' });
    expect(failed.dashboard!.status_counts!.pending).toBe(0);
    h.service.deps.provider.breaker.open();
    const open = await as(tenant, () => h.client.call.getInstance({ id: instance!.id }));
    expect(open.dashboard!.quota_error).toMatchObject({ code: 'api_error' });
  });

  it('is NOT_FOUND for an unknown id and for another tenant’s instance', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    expect(
      (await failureOf(as(tenant, () => h.client.call.getInstance({ id: 999_999 })))).code,
    ).toBe(status.NOT_FOUND);
    const other = newTenant();
    for (const call of [
      () => h.client.call.getInstance({ id: instance!.id }),
      () => h.client.call.updateInstance({ id: instance!.id, name: 'stolen' }),
      () => h.client.call.deleteInstance({ id: instance!.id }),
      () => h.client.call.listTrackableChannels({ id: instance!.id }),
      () => h.client.call.checkInstance({ id: instance!.id }),
    ]) {
      expect((await failureOf(as(other, call))).code).toBe(status.NOT_FOUND);
    }
    expect(
      (await as(tenant, () => h.client.call.getInstance({ id: instance!.id }))).instance!.name,
    ).toBe('Parcel tracking');
    expect(await as(tenant, () => h.client.call.checkInstance({ id: instance!.id }))).toEqual({
      id: instance!.id,
    });
  });
});

describe('UpdateInstance', () => {
  it('applies only the keys present, merges nested objects, re-arms the quota alert and records changed keys', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant, {
      auto_track_channels: {
        default_scope: 'all',
        channels: { '1': { enabled: false, sub_channels: {} } },
      },
    });
    const id = instance!.id;
    await h.service.deps.instances.model.updateOne(
      { id },
      { $set: { quota_alert_state: 'warned' } },
    );
    const { instance: updated } = await as(tenant, () =>
      h.client.call.updateInstance({
        id,
        auto_track: { rmas: false },
        side_effects: { rma_arrival_alert: false },
        quota_alert_threshold: 90,
        auto_track_channels: { channels: { '2': { sub_channels: { '21': true } } } },
      }),
    );
    expect(updated).toMatchObject({
      name: 'Parcel tracking',
      auto_track: { sales_order_fulfillments: true, rmas: false, vendor_credit_shipments: true },
      side_effects: {
        vendor_credit_shipment_auto_delivered: true,
        inbound_shipment_arrival_alert: true,
        rma_arrival_alert: false,
      },
      quota_alert_threshold: 90,
      auto_track_channels: {
        default_scope: 'all',
        channels: {
          '1': { enabled: false, sub_channels: {} },
          '2': { sub_channels: { '21': true } },
        },
      },
    });
    expect((await h.service.deps.instances.model.findOne({ id }).lean())!.quota_alert_state).toBe(
      'armed',
    );
    const events = await eventually(async () => {
      const found = (await activityEvents(h, tenant)).filter((e) => e.event === 'updated');
      expect(found).toHaveLength(1);
      return found;
    });
    expect(JSON.parse(events[0]!.properties_json)).toEqual({
      changed_keys: [
        'auto_track.rmas',
        'auto_track_channels',
        'side_effects.rma_arrival_alert',
        'quota_alert_threshold',
      ],
    });
    expect(events[0]).toMatchObject({ causer_id: 'user-1', subject_id: id });
  });

  it('verifies a rotated key, stores it encrypted, and never puts it in the activity', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    expect(
      await failureOf(
        as(tenant, () => h.client.call.updateInstance({ id, api_key: 'rejected_key_9' })),
      ),
    ).toMatchObject({ reason: 'invalid_key' });
    await as(tenant, () => h.client.call.updateInstance({ id, api_key: OTHER_KEY }));
    const stored = await h.service.deps.instances.model.findOne({ id }).lean();
    expect(h.service.deps.secrets.decrypt(stored!.api_key_encrypted)).toBe(OTHER_KEY);
    const { dashboard } = await as(tenant, () => h.client.call.getInstance({ id }));
    expect(dashboard!.quota!.total).toBe(50);
    const events = await eventually(async () => {
      const found = (await activityEvents(h, tenant)).filter((e) => e.event === 'updated');
      expect(found).toHaveLength(1);
      return found;
    });
    expect(JSON.parse(events[0]!.properties_json)).toEqual({ changed_keys: ['api_key'] });
    expect(JSON.stringify(events)).not.toContain(OTHER_KEY);
  });

  it('validates bounds: threshold 1-99, name max 255 and not blank, key 8-255, default all/none', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    for (const [request, field] of [
      [{ quota_alert_threshold: 0 }, 'quota_alert_threshold'],
      [{ quota_alert_threshold: 100 }, 'quota_alert_threshold'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ name: '' }, 'name'],
      [{ api_key: 'a'.repeat(7) }, 'api_key'],
      [{ api_key: 'a'.repeat(256) }, 'api_key'],
      [
        { auto_track_channels: { default_scope: 'maybe', channels: {} } },
        'auto_track_channels.default',
      ],
    ] as const) {
      const failure = await failureOf(
        as(tenant, () => h.client.call.updateInstance({ id, ...request })),
      );
      expect(failure.fieldViolations.map((v) => v.field)).toEqual([field]);
    }
    const edges = await as(tenant, () =>
      h.client.call.updateInstance({ id, quota_alert_threshold: 1 }),
    );
    expect(edges.instance!.quota_alert_threshold).toBe(1);
    expect(
      (await as(tenant, () => h.client.call.updateInstance({ id, quota_alert_threshold: 99 })))
        .instance!.quota_alert_threshold,
    ).toBe(99);
  });
});

describe('DeleteInstance', () => {
  it('unregisters the token, stops active rows (at the provider in the background), keeps history and records disconnected', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    const token = instance!.webhook_path.split('/').pop()!;
    const base = {
      tenant_id: tenant,
      integration_instance_id: id,
      trackable_type: 'sales_order_fulfillment',
      trackable_id: 1,
    };
    const { trackings } = h.service.deps;
    // Register two numbers at the provider the way the registration job will.
    await h.service.deps.provider.register(GOOD_KEY, [
      { number: '1Z999AA10123456784' },
      { number: 'JJD0123456789' },
    ]);
    await trackings.insert({
      ...base,
      tracking_number: '1Z999AA10123456784',
      delivery_status: 'in_transit',
      carrier_code: 100002,
      registered_at: new Date(),
    });
    await trackings.insert({
      ...base,
      tracking_number: 'JJD0123456789',
      delivery_status: 'info_received',
      carrier_code: 190271,
      registered_at: new Date(),
    });
    await trackings.insert({
      ...base,
      tracking_number: 'DONE1',
      delivery_status: 'delivered',
      registered_at: new Date(),
      delivered_at: new Date(),
    });
    h.sim.failNext('stoptrack', { httpStatus: 503 });

    await as(tenant, () => h.client.call.deleteInstance({ id }));

    expect(await h.service.deps.instances.model.countDocuments({ tenant_id: tenant })).toBe(0);
    expect(await h.ingest.stores.tokens.resolve(token)).toBeNull();
    const rows = await trackings.find(tenant, id);
    expect(rows).toHaveLength(3);
    expect(
      rows
        .filter((row) => row.stopped_at !== null)
        .map((row) => row.tracking_number)
        .sort(),
    ).toEqual(['1Z999AA10123456784', 'JJD0123456789']);
    expect(rows.find((row) => row.tracking_number === 'DONE1')!.stopped_at).toBeNull();
    // The first stoptrack fails (503); the worker retries until the provider stops both.
    await eventually(async () => {
      const states = h.sim.trackings().map((t) => t.tracking_state);
      expect(states).toEqual(['Stopped', 'Stopped']);
      const after = await trackings.find(tenant, id);
      expect(after.filter((row) => row.provider_stopped_at !== null)).toHaveLength(2);
    }, 10_000);
    const events = await eventually(async () => {
      const found = (await activityEvents(h, tenant)).filter((e) => e.event === 'disconnected');
      expect(found).toHaveLength(1);
      return found;
    });
    expect(events[0]).toMatchObject({ subject_id: id, causer_id: 'user-1' });
    expect((await failureOf(as(tenant, () => h.client.call.getInstance({ id })))).code).toBe(
      status.NOT_FOUND,
    );
    expect((await failureOf(as(tenant, () => h.client.call.deleteInstance({ id })))).code).toBe(
      status.NOT_FOUND,
    );

    const again = await create(tenant);
    expect(again.instance!.id).not.toBe(id);
    expect(again.instance!.webhook_path).not.toBe(instance!.webhook_path);
  });
});

// Last: it stops webhook-ingest for good.
describe('CreateInstance without the webhook registry', () => {
  it('undoes the create and answers UNAVAILABLE', async () => {
    const tenant = newTenant();
    await h.ingest.grpc!.stop(1_000);
    expect((await failureOf(create(tenant))).code).toBe(status.UNAVAILABLE);
    expect(await h.service.deps.instances.model.countDocuments({ tenant_id: tenant })).toBe(0);
  });
});
