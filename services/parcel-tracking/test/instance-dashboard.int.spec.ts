import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { RETIRED_TRACKING_INDEXES } from '../src/store/tracking.js';
import { as, failureOf, startReplica, startReplicaWithOpenBreaker } from './harness.js';

import { useInstanceSuite } from './instance-suite.js';

const suite = useInstanceSuite();
const { newTenant, create } = suite;

describe('GetInstance', () => {
  it('returns the live quota and a zero-filled dashboard for a new instance', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const { dashboard } = await as(tenant, () =>
      suite.h.client.call.getInstance({ id: instance!.id }),
    );
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
      stalled_count: 0,
      late_count: 0,
      registration_errors: [],
      transit: {
        window_days: 90,
        overall: { delivered_count: 0, with_estimate_count: 0, on_time_count: 0 },
        carriers: [],
      },
      carriers_seen: [],
      trends: { days: 30, daily: expect.any(Array) },
      quota_forecast: { daily_rate: 0, window_days: 14 },
      quota_units_saved: 0,
    });
    expect(dashboard!.trends!.daily).toHaveLength(30);
    expect(
      dashboard!.trends!.daily.every((day) => day.registered === 0 && day.delivered === 0),
    ).toBe(true);
  });

  it('computes counts, pending registrations, grouped errors, last event, last webhook and transit from real rows', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    const base = suite.rowBase(tenant, id);
    const day = 24 * 3600 * 1000;
    const now = Date.now();
    const { trackings } = suite.h.stores;
    await trackings.insert({ ...base, tracking_number: 'P1', delivery_status: 'pending' });
    await trackings.insert({
      ...base,
      tracking_number: 'P2',
      delivery_status: 'pending',
      registration_error: 'Carrier cannot be detected.',
      registration_failed_at: new Date(now - day),
      registration_given_up_at: new Date(now - day),
    });
    await trackings.insert({
      ...base,
      tracking_number: 'P3',
      delivery_status: 'pending',
      registration_error: 'Carrier cannot be detected.',
      registration_failed_at: new Date(now - 2 * day),
      registration_given_up_at: new Date(now - 2 * day),
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
    await suite.h.ingest.stores.inbox.store({
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

    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard!.status_counts).toMatchObject({
      pending: 4,
      in_transit: 1,
      delivered: 2,
      exception: 0,
    });
    // P1 and P4 (its quota refusal is retried); the undetectable carriers are given up.
    expect(dashboard!.pending_registration_count).toBe(2);
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

  it('reads only the unregistered rows for the pending count and the registration errors, not every row of the instance', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    const base = suite.rowBase(tenant, id);
    const { trackings } = suite.h.stores;
    for (let i = 0; i < 40; i++)
      await trackings.insert({
        ...base,
        tracking_number: `R${i}`,
        delivery_status: 'in_transit',
        registered_at: new Date(),
      });
    await trackings.insert({ ...base, tracking_number: 'P1', delivery_status: 'pending' });
    await trackings.insert({
      ...base,
      tracking_number: 'E1',
      delivery_status: 'pending',
      registration_error: 'Quota exhausted.',
      registration_failed_at: new Date(),
    });
    await trackings.insert({
      ...base,
      tracking_number: 'G1',
      delivery_status: 'pending',
      registration_error: 'Carrier cannot be detected.',
      registration_failed_at: new Date(),
      registration_given_up_at: new Date(),
    });
    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard!.pending_registration_count).toBe(2);
    expect(dashboard!.registration_errors).toMatchObject([
      { message: 'Carrier cannot be detected.', count: 1 },
      { message: 'Quota exhausted.', count: 1 },
    ]);
    // The shapes TrackingRepository asks (pendingRegistrationCount, registrationErrors): the index that
    // leads with registered_at bounds both to the three unregistered rows, whatever MongoDB serves it.
    const rows = suite.h.stored('tracking_rows');
    const scope = { tenant_id: tenant, integration_instance_id: id };
    for (const filter of [
      { ...scope, registered_at: null, registration_given_up_at: null, stopped_at: null },
      { ...scope, registration_error: { $ne: null }, registered_at: null },
    ]) {
      const { executionStats } = await rows.find(filter).explain('executionStats');
      expect(executionStats.nReturned, JSON.stringify(filter)).toBe(2);
      expect(executionStats.totalDocsExamined, JSON.stringify(filter)).toBeLessThanOrEqual(3);
    }
  });

  it('drops the retired registration-error index at start, and starts as well when there is none', async () => {
    const rows = suite.h.stored('tracking_rows');
    const names = async () => (await rows.indexes()).map((index) => index.name);
    await rows.createIndex({ tenant_id: 1, integration_instance_id: 1, registration_error: 1 });
    expect(await names()).toContain(RETIRED_TRACKING_INDEXES[0]);
    const replica = await startReplica(suite.h);
    await replica.stop();
    expect(await names()).not.toContain(RETIRED_TRACKING_INDEXES[0]);
    const again = await startReplica(suite.h);
    await again.stop();
    expect(await names()).not.toContain(RETIRED_TRACKING_INDEXES[0]);
  });

  it('still answers when the provider fails, with the failure in quota_error', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    suite.h.sim.failNext('getquota', { httpStatus: 503 });
    const failed = await as(tenant, () => suite.h.client.call.getInstance({ id: instance!.id }));
    expect(failed.dashboard!.quota).toBeUndefined();
    expect(failed.dashboard!.quota_error).toMatchObject({ code: 'api_error' });
    expect(failed.dashboard!.status_counts!.pending).toBe(0);
    const replica = await startReplicaWithOpenBreaker(suite.h);
    try {
      const open = await as(tenant, () => replica.client.call.getInstance({ id: instance!.id }));
      expect(open.dashboard!.quota_error).toMatchObject({ code: 'api_error' });
    } finally {
      await replica.stop();
    }
  });

  it('is NOT_FOUND for an unknown id and for another tenant’s instance', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    expect(
      (await failureOf(as(tenant, () => suite.h.client.call.getInstance({ id: 999_999 })))).code,
    ).toBe(status.NOT_FOUND);
    const other = newTenant();
    for (const call of [
      () => suite.h.client.call.getInstance({ id: instance!.id }),
      () =>
        suite.h.client.call.updateInstance({
          input_violations: [],
          id: instance!.id,
          name: 'stolen',
        }),
      () => suite.h.client.call.deleteInstance({ id: instance!.id }),
      () => suite.h.client.call.listTrackableChannels({ id: instance!.id }),
      () => suite.h.client.call.checkInstance({ id: instance!.id }),
    ]) {
      expect((await failureOf(as(other, call))).code).toBe(status.NOT_FOUND);
    }
    expect(
      (await as(tenant, () => suite.h.client.call.getInstance({ id: instance!.id }))).instance!
        .name,
    ).toBe('Parcel tracking');
    expect(await as(tenant, () => suite.h.client.call.checkInstance({ id: instance!.id }))).toEqual(
      {
        id: instance!.id,
        history_instance_ids: [],
      },
    );
  });
});
