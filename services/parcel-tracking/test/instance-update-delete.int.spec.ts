import { createHash } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { ListTrackingsRequest } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { describe, expect, it } from 'vitest';
import { activityEvents, as, eventually, failureOf, GOOD_KEY, OTHER_KEY } from './harness.js';

import { keyFingerprint } from '../src/provider/key-fingerprint.js';
import { useInstanceSuite } from './instance-suite.js';
import { testProvider } from './workers.js';

const suite = useInstanceSuite();
const { newTenant, create } = suite;

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
    // The alert state machine moved on (a warning was raised), as a quota read would move it.
    await suite.h.stores.instances.moveQuotaAlert(tenant, id, 'armed', 80, 'warned', false);
    const { instance: updated } = await as(tenant, () =>
      suite.h.client.call.updateInstance({
        input_violations: [],
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
    expect((await suite.h.stored('instances').findOne({ id }))!.quota_alert_state).toBe('armed');
    const events = await eventually(async () => {
      const found = (await activityEvents(suite.h, tenant)).filter((e) => e.event === 'updated');
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
        as(tenant, () =>
          suite.h.client.call.updateInstance({
            input_violations: [],
            id,
            api_key: 'rejected_key_9',
          }),
        ),
      ),
    ).toMatchObject({ reason: 'invalid_key' });
    await as(tenant, () =>
      suite.h.client.call.updateInstance({ input_violations: [], id, api_key: OTHER_KEY }),
    );
    const stored = await suite.h.stored('instances').findOne({ id });
    expect(suite.h.secrets.decrypt(stored!.api_key_encrypted)).toBe(OTHER_KEY);
    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard!.quota!.total).toBe(50);
    const events = await eventually(async () => {
      const found = (await activityEvents(suite.h, tenant)).filter((e) => e.event === 'updated');
      expect(found).toHaveLength(1);
      return found;
    });
    expect(JSON.parse(events[0]!.properties_json)).toEqual({ changed_keys: ['api_key'] });
    expect(JSON.stringify(events)).not.toContain(OTHER_KEY);
    // The old key stays, encrypted, for the rows it registered (ADR 0213).
    expect(stored!.retired_keys).toEqual([
      {
        key_ref: keyFingerprint(GOOD_KEY),
        api_key_encrypted: expect.any(String),
        retired_at: expect.any(Date),
      },
    ]);
    expect(suite.h.secrets.decrypt(stored!.retired_keys[0].api_key_encrypted)).toBe(GOOD_KEY);
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
        as(tenant, () =>
          suite.h.client.call.updateInstance({ input_violations: [], id, ...request }),
        ),
      );
      expect(failure.fieldViolations.map((v) => v.field)).toEqual([field]);
    }
    const edges = await as(tenant, () =>
      suite.h.client.call.updateInstance({ input_violations: [], id, quota_alert_threshold: 1 }),
    );
    expect(edges.instance!.quota_alert_threshold).toBe(1);
    expect(
      (
        await as(tenant, () =>
          suite.h.client.call.updateInstance({
            input_violations: [],
            id,
            quota_alert_threshold: 99,
          }),
        )
      ).instance!.quota_alert_threshold,
    ).toBe(99);
  });
});

describe('DeleteInstance', () => {
  it('unregisters the token, stops active rows (at the provider in the background), keeps history and records disconnected', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    const token = instance!.webhook_path.split('/').pop()!;
    const base = suite.rowBase(tenant, id);
    const { trackings } = suite.h.stores;
    // Register two numbers at the provider the way the registration job will.
    await testProvider(suite.h).register(GOOD_KEY, [
      { number: '1Z999AA10123456784' },
      { number: 'JJD0123456789' },
      { number: 'DONE000001' },
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
      tracking_number: 'DONE000001',
      delivery_status: 'delivered',
      registered_at: new Date(),
      delivered_at: new Date(),
    });
    suite.h.sim.failNext('stoptrack', { httpStatus: 503 });

    await as(tenant, () => suite.h.client.call.deleteInstance({ id }));

    expect(await suite.h.stored('instances').countDocuments({ tenant_id: tenant })).toBe(0);
    expect(await suite.h.ingest.stores.tokens.resolve(token)).toBeNull();
    const rows = await trackings.find(tenant, id);
    expect(rows).toHaveLength(3);
    expect(
      rows
        .filter((row) => row.stopped_at !== null)
        .map((row) => row.tracking_number)
        .sort(),
    ).toEqual(['1Z999AA10123456784', 'JJD0123456789']);
    expect(rows.find((row) => row.tracking_number === 'DONE000001')!.stopped_at).toBeNull();
    // The first stoptrack fails (503); the worker retries until the provider stops all three:
    // the delivered row too, which the stopping worker would have stopped had the instance lived.
    await eventually(async () => {
      const states = suite.h.sim.trackings().map((t) => t.tracking_state);
      expect(states).toEqual(['Stopped', 'Stopped', 'Stopped']);
      const after = await trackings.find(tenant, id);
      expect(after.filter((row) => row.provider_stopped_at !== null)).toHaveLength(3);
    }, 10_000);
    const events = await eventually(async () => {
      const found = (await activityEvents(suite.h, tenant)).filter(
        (e) => e.event === 'disconnected',
      );
      expect(found).toHaveLength(1);
      return found;
    });
    expect(events[0]).toMatchObject({ subject_id: id, causer_id: 'user-1' });
    expect((await failureOf(as(tenant, () => suite.h.client.call.getInstance({ id })))).code).toBe(
      status.NOT_FOUND,
    );
    expect(
      (await failureOf(as(tenant, () => suite.h.client.call.deleteInstance({ id })))).code,
    ).toBe(status.NOT_FOUND);

    const again = await create(tenant);
    expect(again.instance!.id).not.toBe(id);
    expect(again.instance!.webhook_path).not.toBe(instance!.webhook_path);
    // The new instance carries the old one's rows as its history (ADR 0215).
    const newId = again.instance!.id;
    const check = await as(tenant, () => suite.h.client.call.checkInstance({ id: newId }));
    expect(check.history_instance_ids).toEqual([id]);
    const listed = await as(tenant, () =>
      suite.h.client.call.listTrackings(
        ListTrackingsRequest.fromPartial({ integration_instance_id: newId }),
      ),
    );
    expect(listed.total).toBe(3);
    expect(listed.trackings.filter((row) => row.stopped_at !== undefined)).toHaveLength(2);
  });

  it('stops each row with the key that registered it, after a rotation; a failing key is retried alone', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    const base = suite.rowBase(tenant, id);
    const { trackings } = suite.h.stores;
    const provider = testProvider(suite.h);
    const rows = [
      [GOOD_KEY, '1Z999AA10123456784'],
      [GOOD_KEY, 'JJD0123456789'],
      [OTHER_KEY, 'XX123456789GB'],
    ] as const;
    for (const [key, number] of rows) {
      await provider.register(key, [{ number }]);
      await trackings.insert({
        ...base,
        tracking_number: number,
        delivery_status: 'in_transit',
        registered_at: new Date(),
        registered_key_ref: keyFingerprint(key),
      });
    }
    await as(tenant, () =>
      suite.h.client.call.updateInstance({ input_violations: [], id, api_key: OTHER_KEY }),
    );
    // The current key's stop succeeds at once; the old key's first stop fails and is retried.
    suite.h.sim.failNext('stoptrack', { httpStatus: 503, apiKey: GOOD_KEY });

    await as(tenant, () => suite.h.client.call.deleteInstance({ id }));

    await eventually(async () => {
      const states = suite.h.sim.trackings().map((t) => [t.api_key, t.number, t.tracking_state]);
      expect(states.sort()).toEqual(rows.map(([key, number]) => [key, number, 'Stopped']).sort());
      const after = await trackings.find(tenant, id);
      expect(after.every((row) => row.provider_stopped_at !== null)).toBe(true);
    }, 10_000);
    expect(await suite.h.stored('stop_jobs').countDocuments({ tenant_id: tenant })).toBe(0);
  });
});

describe('webhook signatures (ADR 0225)', () => {
  const signed = (body: string, key: string) => ({
    raw_body: Buffer.from(body),
    signature: createHash('sha256').update(`${body}/${key}`).digest('hex'),
  });
  const verifyAll = (tenant: string, id: number, checks: Array<ReturnType<typeof signed>>) =>
    as(tenant, () =>
      suite.h.client.call.verifyWebhookSignatures({
        checks: checks.map((check) => ({ integration_instance_id: id, ...check })),
      }),
    );

  it('checks with the key the instance holds now: a rotation or a delete here counts at once, a key written elsewhere on a mismatch', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    const body = '{"event":"TRACKING_UPDATED","data":{"number":"SIG0001"}}';
    expect(
      await as(tenant, () =>
        suite.h.client.call.verifyWebhookSignature({
          integration_instance_id: id,
          ...signed(body, GOOD_KEY),
        }),
      ),
    ).toEqual({ valid: true });

    await as(tenant, () =>
      suite.h.client.call.updateInstance({ input_violations: [], id, api_key: OTHER_KEY }),
    );
    const afterRotation = await verifyAll(tenant, id, [
      signed(body, GOOD_KEY),
      signed(body, OTHER_KEY),
    ]);
    expect(afterRotation.results.map((result) => result.valid)).toEqual([false, true]);

    // Another replica's rotation (written straight to the store): a push signed with the new key
    // is not refused for the old key this replica still holds.
    await suite.h
      .stored('instances')
      .updateOne({ id }, { $set: { api_key_encrypted: suite.h.secrets.encrypt(GOOD_KEY) } });
    const [rotatedElsewhere] = (await verifyAll(tenant, id, [signed(body, GOOD_KEY)])).results;
    expect(rotatedElsewhere).toMatchObject({ valid: true });

    // Another tenant's instance is unknown, item by item.
    const [foreign] = (await verifyAll(newTenant(), id, [signed(body, GOOD_KEY)])).results;
    expect(foreign!.error).toMatchObject({ code: status.NOT_FOUND });

    await as(tenant, () => suite.h.client.call.deleteInstance({ id }));
    const [gone] = (await verifyAll(tenant, id, [signed(body, GOOD_KEY)])).results;
    expect(gone).toMatchObject({ valid: false, error: { code: status.NOT_FOUND } });
  });
});

// Last: it stops webhook-ingest for good.
