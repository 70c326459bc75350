import { status } from '@grpc/grpc-js';
import {
  TrackingUpdateOutcome as Outcome,
  type ProviderTrackingUpdate,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { AlertRaised } from '@inventory/contracts/events/v1/alert.js';
import { VendorCreditShipmentDelivered } from '@inventory/contracts/events/v1/shipment.js';
import { documentsExamined } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { as, eventually, failureOf } from './harness.js';
import { numbers, streamMessages, useTrackingSuite } from './tracking-suite.js';

const suite = useTrackingSuite();
const { newTenant, create, assign, rows, waitForRows } = suite;

let webhookEventId = 1000;
const t = (minute: number) => new Date(Date.UTC(2026, 0, 10, 12, minute));
const update = (over: Partial<ProviderTrackingUpdate> = {}): ProviderTrackingUpdate => ({
  event_type: 'TRACKING_UPDATED',
  tracking_number: 'WEBHOOK0001',
  carrier_code: 3011,
  provider_status: 'InTransit',
  provider_sub_status: 'InTransit_PickedUp',
  latest_event_at: t(1),
  latest_event_description: 'Picked up',
  latest_event_location: 'Shenzhen',
  checkpoints: [],
  ...over,
});

async function apply(
  tenant: string,
  id: number,
  body: ProviderTrackingUpdate,
  eventId = ++webhookEventId,
  generation?: number,
) {
  return as(tenant, () =>
    suite.h.client.call.applyTrackingUpdate({
      integration_instance_id: id,
      webhook_event_id: eventId,
      update: body,
      ...(generation === undefined ? {} : { generation }),
    }),
  );
}

async function tracked(tenant: string, payload: Parameters<typeof assign>[1] = {}) {
  const id = await create(tenant);
  await assign(tenant, { trackable_id: 1, tracking_number: 'WEBHOOK0001', ...payload });
  await waitForRows(tenant, id, () => true);
  return id;
}

describe('ApplyTrackingUpdate', () => {
  it('applies, then answers duplicate, stale (never backwards), unknown number; TRACKING_STOPPED stops, then stopped', async () => {
    const tenant = newTenant();
    const id = await tracked(tenant);
    expect(await apply(tenant, id, update())).toMatchObject({
      outcome: Outcome.TRACKING_UPDATE_OUTCOME_APPLIED,
      status_from: 'pending',
      status_to: 'in_transit',
    });
    expect((await apply(tenant, id, update())).outcome).toBe(
      Outcome.TRACKING_UPDATE_OUTCOME_DUPLICATE,
    );
    const delivered = update({
      provider_status: 'Delivered',
      provider_sub_status: 'Delivered_Other',
      latest_event_at: t(30),
    });
    expect(await apply(tenant, id, delivered)).toMatchObject({
      status_from: 'in_transit',
      status_to: 'delivered',
    });
    expect(await apply(tenant, id, update({ latest_event_at: t(10) }))).toMatchObject({
      outcome: Outcome.TRACKING_UPDATE_OUTCOME_STALE,
      status_from: 'delivered',
      status_to: 'delivered',
    });
    expect((await apply(tenant, id, update({ tracking_number: 'NOPE0000' }))).outcome).toBe(
      Outcome.TRACKING_UPDATE_OUTCOME_UNKNOWN_NUMBER,
    );
    expect((await apply(tenant, id, update({ event_type: 'TRACKING_STOPPED' }))).outcome).toBe(
      Outcome.TRACKING_UPDATE_OUTCOME_APPLIED,
    );
    const [row] = await rows(tenant, id);
    expect(row).toMatchObject({
      delivery_status: 'delivered',
      sub_status: 'Delivered_Other',
      latest_event_location: 'Shenzhen',
    });
    expect(row!.stopped_at).not.toBeNull();
    expect(row!.delivered_at).toEqual(t(30));
    expect((await apply(tenant, id, update({ latest_event_at: t(59) }))).outcome).toBe(
      Outcome.TRACKING_UPDATE_OUTCOME_STOPPED,
    );
  });

  it('is idempotent by webhook_event_id: a retry gets the first answer', async () => {
    const tenant = newTenant();
    const id = await tracked(tenant);
    const first = await apply(tenant, id, update(), 777);
    const retry = await apply(
      tenant,
      id,
      update({ provider_status: 'Exception', latest_event_at: t(50) }),
      777,
    );
    expect(retry).toEqual(first);
    expect((await rows(tenant, id))[0]!.delivery_status).toBe('in_transit');
  });

  it('a reprocess (the next generation) is evaluated again; a retry of each generation gets its own first answer (ADR 0230)', async () => {
    const tenant = newTenant();
    const id = await tracked(tenant);
    const later = update({ tracking_number: 'LATER0001' });
    expect((await apply(tenant, id, later, 888)).outcome).toBe(
      Outcome.TRACKING_UPDATE_OUTCOME_UNKNOWN_NUMBER,
    );
    await assign(tenant, { trackable_id: 2, tracking_number: 'LATER0001' });
    await waitForRows(tenant, id, (row) => row.tracking_number === 'LATER0001');
    // The same generation is a retry: the recorded answer, even now that the number is tracked.
    expect((await apply(tenant, id, later, 888, 0)).outcome).toBe(
      Outcome.TRACKING_UPDATE_OUTCOME_UNKNOWN_NUMBER,
    );
    const reprocessed = await apply(tenant, id, later, 888, 1);
    expect(reprocessed).toMatchObject({
      outcome: Outcome.TRACKING_UPDATE_OUTCOME_APPLIED,
      status_from: 'pending',
      status_to: 'in_transit',
    });
    expect(
      await apply(
        tenant,
        id,
        update({ tracking_number: 'LATER0001', latest_event_at: t(55) }),
        888,
        1,
      ),
    ).toEqual(reprocessed);
    // A newer event lands; reprocessing an older one never moves the row back.
    const delivered = update({
      tracking_number: 'LATER0001',
      provider_status: 'Delivered',
      provider_sub_status: 'Delivered_Other',
      latest_event_at: t(30),
    });
    expect((await apply(tenant, id, delivered)).outcome).toBe(
      Outcome.TRACKING_UPDATE_OUTCOME_APPLIED,
    );
    expect(await apply(tenant, id, later, 888, 2)).toMatchObject({
      outcome: Outcome.TRACKING_UPDATE_OUTCOME_STALE,
      status_to: 'delivered',
    });
    const row = (await rows(tenant, id)).find((one) => one.tracking_number === 'LATER0001');
    expect(row!.delivery_status).toBe('delivered');
  });

  it('another tenant cannot apply to the instance (NOT_FOUND); a missing number is INVALID_ARGUMENT', async () => {
    const tenant = newTenant();
    const id = await tracked(tenant);
    expect((await failureOf(apply(newTenant(), id, update()))).code).toBe(status.NOT_FOUND);
    expect((await failureOf(apply(tenant, id, update({ tracking_number: ' ' })))).code).toBe(
      status.INVALID_ARGUMENT,
    );
    expect((await rows(tenant, id))[0]!.delivery_status).toBe('pending');
  });
});

describe('ApplyTrackingUpdates (a batch, ADR 0226)', () => {
  const applyAll = (
    tenant: string,
    updates: Array<{ id: number; body: ProviderTrackingUpdate; eventId?: number }>,
  ) =>
    as(tenant, () =>
      suite.h.client.call.applyTrackingUpdates({
        updates: updates.map(({ id, body, eventId }) => ({
          integration_instance_id: id,
          webhook_event_id: eventId ?? ++webhookEventId,
          update: body,
        })),
      }),
    );

  it('answers each update as the single call would, in order, the updates of one number one after the other', async () => {
    const tenant = newTenant();
    const id = await tracked(tenant);
    const recorded = await apply(tenant, id, update({ tracking_number: 'NOPE0001' }), 4242);
    const delivered = update({
      provider_status: 'Delivered',
      provider_sub_status: 'Delivered_Other',
      latest_event_at: t(30),
    });
    const { results } = await applyAll(tenant, [
      { id, body: update() },
      { id, body: update() },
      { id, body: delivered },
      { id, body: update({ latest_event_at: t(10) }) },
      { id, body: update({ tracking_number: 'NOPE0000' }) },
      { id, body: update({ tracking_number: ' ' }) },
      { id, body: update(), eventId: 4242 },
    ]);
    expect(results.map((result) => result.answer?.outcome)).toEqual([
      Outcome.TRACKING_UPDATE_OUTCOME_APPLIED,
      Outcome.TRACKING_UPDATE_OUTCOME_DUPLICATE,
      Outcome.TRACKING_UPDATE_OUTCOME_APPLIED,
      Outcome.TRACKING_UPDATE_OUTCOME_STALE,
      Outcome.TRACKING_UPDATE_OUTCOME_UNKNOWN_NUMBER,
      undefined,
      recorded.outcome,
    ]);
    expect(results[0]!.answer).toMatchObject({ status_from: 'pending', status_to: 'in_transit' });
    expect(results[2]!.answer).toMatchObject({ status_from: 'in_transit', status_to: 'delivered' });
    expect(results[5]!.error).toMatchObject({ code: status.INVALID_ARGUMENT });
    const [row] = await rows(tenant, id);
    expect(row).toMatchObject({ delivery_status: 'delivered', sub_status: 'Delivered_Other' });
    expect(row!.delivered_at).toEqual(t(30));
  });

  it('reads the rows of the updated numbers only, however many rows the instance tracks', async () => {
    const tenant = newTenant();
    const id = await tracked(tenant);
    await suite.pendingRows(tenant, id, numbers('OTHER', 300, 6), 2);
    const examined = () => documentsExamined(suite.h.connection.db!);
    const before = await examined();
    expect((await apply(tenant, id, update())).outcome).toBe(
      Outcome.TRACKING_UPDATE_OUTCOME_APPLIED,
    );
    const { results } = await applyAll(tenant, [
      { id, body: update({ latest_event_at: t(20), provider_status: 'OutForDelivery' }) },
      { id, body: update({ tracking_number: 'OTHER000007', latest_event_at: t(20) }) },
    ]);
    expect(results.map((result) => result.answer?.outcome)).toEqual([
      Outcome.TRACKING_UPDATE_OUTCOME_APPLIED,
      Outcome.TRACKING_UPDATE_OUTCOME_APPLIED,
    ]);
    // A few documents per update (the instance, the row, its write), not the instance's 301 rows:
    // sorted by {active, id} in the query, the planner walked them all (ADR 0727).
    expect((await examined()) - before).toBeLessThanOrEqual(20);
  });

  it('is idempotent by webhook_event_id: the batch sent again gets the first answers and changes nothing', async () => {
    const tenant = newTenant();
    const id = await tracked(tenant);
    const batch = [
      { id, body: update(), eventId: ++webhookEventId },
      { id, body: update({ tracking_number: 'NOPE0002' }), eventId: ++webhookEventId },
    ];
    const first = await applyAll(tenant, batch);
    const retry = await applyAll(tenant, [
      { ...batch[0]!, body: update({ provider_status: 'Exception', latest_event_at: t(50) }) },
      batch[1]!,
    ]);
    expect(retry).toEqual(first);
    expect((await rows(tenant, id))[0]!.delivery_status).toBe('in_transit');
  });

  it("refuses another tenant's instance item by item (NOT_FOUND), changing nothing", async () => {
    const tenant = newTenant();
    const id = await tracked(tenant);
    const { results } = await applyAll(newTenant(), [{ id, body: update() }]);
    expect(results[0]!.error).toMatchObject({ code: status.NOT_FOUND });
    expect((await rows(tenant, id))[0]!.delivery_status).toBe('pending');
  });
});

describe('delivery side effects', () => {
  const delivered = (minute: number) =>
    update({
      provider_status: 'Delivered',
      provider_sub_status: 'Delivered_Other',
      latest_event_at: t(minute),
    });

  it('an inbound shipment raises "ready to receive" once, however often the provider repeats itself', async () => {
    const tenant = newTenant();
    const id = await tracked(tenant, {
      trackable_type: 'inbound_shipment',
      trackable_id: 42,
      trackable_label: 'IS-42',
    });
    await apply(tenant, id, delivered(5));
    await apply(tenant, id, delivered(5));
    await apply(tenant, id, delivered(6));
    const alerts = await eventually(async () => {
      const found = await streamMessages(suite.h, 'ACTIVITY', 'activity.alert.raised', tenant);
      expect(found).toHaveLength(1);
      return found.map((envelope) => AlertRaised.decode(envelope.payload));
    }, 10_000);
    expect(alerts[0]).toMatchObject({
      kind: 'inbound_shipment_delivered',
      link: '/inbound-shipments/1',
    });
    expect(alerts[0]!.message).toContain('ready to receive');
    expect((await rows(tenant, id))[0]!.delivery_effects_at).not.toBeNull();
  });

  it('an RMA raises "ready to inspect"; a vendor credit shipment publishes its delivered event', async () => {
    const tenant = newTenant();
    const id = await tracked(tenant, { trackable_type: 'rma', trackable_id: 9 });
    await assign(tenant, {
      trackable_type: 'vendor_credit_shipment',
      trackable_id: 11,
      tracking_number: 'VENDOR0001',
    });
    await waitForRows(tenant, id, (row) => row.tracking_number === 'VENDOR0001');
    await apply(tenant, id, delivered(5));
    await apply(tenant, id, { ...delivered(5), tracking_number: 'VENDOR0001' });
    const alert = await eventually(async () => {
      const [found] = await streamMessages(suite.h, 'ACTIVITY', 'activity.alert.raised', tenant);
      return AlertRaised.decode(found!.payload);
    }, 10_000);
    expect(alert).toMatchObject({ kind: 'rma_delivered' });
    expect(alert.message).toContain('ready to inspect');
    const event = await eventually(async () => {
      const [found] = await streamMessages(
        suite.h,
        'SHIPMENTS',
        'shipment.vendor_credit_delivered',
        tenant,
      );
      return VendorCreditShipmentDelivered.decode(found!.payload);
    }, 10_000);
    expect(event).toMatchObject({
      vendor_credit_shipment_id: 11,
      tracking_number: 'VENDOR0001',
      integration_instance_id: id,
    });
  });

  it('switched off: nothing fires, and the update is still applied', async () => {
    const tenant = newTenant();
    const id = await tracked(tenant, { trackable_type: 'rma', trackable_id: 9 });
    await as(tenant, () =>
      suite.h.client.call.updateInstance({
        id,
        input_violations: [],
        side_effects: { rma_arrival_alert: false },
      }),
    );
    expect((await apply(tenant, id, delivered(5))).outcome).toBe(
      Outcome.TRACKING_UPDATE_OUTCOME_APPLIED,
    );
    // The outbox is drained (the update's own activity row is published) before looking for alerts.
    await eventually(async () => {
      expect(await suite.h.stored('outbox').countDocuments({})).toBe(0);
      expect(
        (await streamMessages(suite.h, 'ACTIVITY', 'activity.recorded', tenant)).length,
      ).toBeGreaterThan(0);
    }, 10_000);
    expect(await streamMessages(suite.h, 'ACTIVITY', 'activity.alert.raised', tenant)).toEqual([]);
    expect((await rows(tenant, id))[0]!.delivery_status).toBe('delivered');
  });
});
