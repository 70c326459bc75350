import { AlertRaised } from '@inventory/contracts/events/v1/alert.js';
import {
  ListTrackingsRequest,
  ShipmentWatchPatch,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { describe, expect, it } from 'vitest';
import { AlertWatchedShipments } from '../src/use-cases/alert-watched-shipments.js';
import { as, eventually, failureOf, startReplica } from './harness.js';
import { streamMessages, useTrackingSuite } from './tracking-suite.js';

const suite = useTrackingSuite();
const { newTenant, create, pendingRows, rows } = suite;

const HOUR = 3600_000;
const UPS = 100002;
const DHL = 100001;

/** The sweep as the service builds it, on the test's stores and the service's outbox. */
const sweep = (now?: () => Date) =>
  new AlertWatchedShipments({
    instances: suite.h.stores.instances,
    trackings: suite.h.stores.trackings,
    outbox: suite.h.service.outbox,
    logger: suite.h.service.logger,
    now,
  });

const ago = (hours: number) => new Date(Date.now() - hours * HOUR);

/** One row of each kind the watch tells apart: stalled, moving, late, delivered, stopped. */
const WATCHED_SHAPES = (): Record<string, object> => ({
  STALLED0001: { delivery_status: 'in_transit', last_event_at: ago(100) },
  MOVING00001: { delivery_status: 'in_transit', last_event_at: ago(1) },
  LATE0000001: {
    delivery_status: 'out_for_delivery',
    last_event_at: ago(1),
    estimated_delivery_at: ago(24),
  },
  DELIVERED01: {
    delivery_status: 'delivered',
    last_event_at: ago(100),
    estimated_delivery_at: ago(200),
    delivered_at: ago(100),
  },
  STOPPED0001: {
    delivery_status: 'in_transit',
    last_event_at: ago(100),
    estimated_delivery_at: ago(24),
    active: false,
    stopped_at: ago(1),
  },
});

/** Rows of the given shapes, each inserted pending and then set as the test needs. */
async function shapedRows(tenant: string, id: number, shape: Record<string, object>) {
  await pendingRows(tenant, id, Object.keys(shape));
  const stored = suite.h.stored('tracking_rows');
  for (const [number, fields] of Object.entries(shape))
    await stored.updateOne({ tenant_id: tenant, tracking_number: number }, { $set: fields });
}

const alertsOf = async (tenant: string) =>
  (await streamMessages(suite.h, 'ACTIVITY', 'activity.alert.raised', tenant)).map((envelope) =>
    AlertRaised.decode(envelope.payload),
  );

const setWatch = (tenant: string, id: number, patch: Partial<ShipmentWatchPatch>) =>
  as(tenant, () =>
    suite.h.client.call.updateInstance({
      input_violations: [],
      id,
      shipment_watch: ShipmentWatchPatch.fromPartial(patch),
    }),
  );

describe('stalled and late shipments (ADR 0218)', () => {
  it('counts them on the dashboard and filters the list by each, and by both', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await shapedRows(tenant, id, {
      ...WATCHED_SHAPES(),
      BOTH0000001: {
        delivery_status: 'in_transit',
        last_event_at: ago(100),
        estimated_delivery_at: ago(24),
      },
    });

    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard).toMatchObject({ stalled_count: 2, late_count: 2 });

    const listed = async (filters: { stalled?: boolean; late?: boolean }) =>
      (
        await as(tenant, () =>
          suite.h.client.call.listTrackings(
            ListTrackingsRequest.fromPartial({ integration_instance_id: id, ...filters }),
          ),
        )
      ).trackings
        .map((row) => row.tracking_number)
        .sort();
    expect(await listed({ stalled: true })).toEqual(['BOTH0000001', 'STALLED0001']);
    expect(await listed({ late: true })).toEqual(['BOTH0000001', 'LATE0000001']);
    expect(await listed({ stalled: true, late: true })).toEqual(['BOTH0000001']);
    expect(await listed({})).toHaveLength(6);
    expect(await rows(tenant, id)).toHaveLength(6);

    // Another tenant sees none of them.
    const other = newTenant();
    const otherId = await create(other);
    const { dashboard: theirs } = await as(other, () =>
      suite.h.client.call.getInstance({ id: otherId }),
    );
    expect(theirs).toMatchObject({ stalled_count: 0, late_count: 0 });
  });
});

describe('the shipment watch settings (ADR 0218)', () => {
  it('answers the defaults, takes a per-carrier threshold, and refuses bad values naming each', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    const { instance } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(instance!.shipment_watch).toEqual({
      stalled_after_hours: 72,
      carrier_stalled_after_hours: [],
      stalled_alert: true,
      late_alert: true,
    });

    const { instance: updated } = await setWatch(tenant, id, {
      stalled_after_hours: 48,
      replace_carrier_stalled_after_hours: true,
      carrier_stalled_after_hours: [{ carrier_code: UPS, hours: 24 }],
      late_alert: false,
    });
    expect(updated!.shipment_watch).toEqual({
      stalled_after_hours: 48,
      carrier_stalled_after_hours: [{ carrier_code: UPS, hours: 24 }],
      stalled_alert: true,
      late_alert: false,
    });
    // A patch without the list keeps it.
    const { instance: kept } = await setWatch(tenant, id, { stalled_alert: false });
    expect(kept!.shipment_watch!.carrier_stalled_after_hours).toEqual([
      { carrier_code: UPS, hours: 24 },
    ]);

    const refused = await failureOf(
      setWatch(tenant, id, {
        stalled_after_hours: 0,
        replace_carrier_stalled_after_hours: true,
        carrier_stalled_after_hours: [
          { carrier_code: UPS, hours: 721 },
          { carrier_code: UPS, hours: 5 },
          { carrier_code: 0, hours: 5 },
        ],
      }),
    );
    expect(refused.fieldViolations!.map((violation) => violation.field)).toEqual([
      'shipment_watch.stalled_after_hours',
      'shipment_watch.carrier_stalled_after_hours.0.hours',
      'shipment_watch.carrier_stalled_after_hours.1.carrier_code',
      'shipment_watch.carrier_stalled_after_hours.2.carrier_code',
    ]);
    // Nothing of a refused patch is written.
    const { instance: after } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(after!.shipment_watch).toEqual(kept!.shipment_watch);
  });

  it('judges each carrier by its own threshold on the dashboard and in the list', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await shapedRows(tenant, id, {
      UPSQUIET30H: { delivery_status: 'in_transit', carrier_code: UPS, last_event_at: ago(30) },
      DHLQUIET30H: { delivery_status: 'in_transit', carrier_code: DHL, last_event_at: ago(30) },
      DHLQUIET99H: { delivery_status: 'in_transit', carrier_code: DHL, last_event_at: ago(99) },
      NOCARRIER99: { delivery_status: 'in_transit', last_event_at: ago(99) },
      UPSQUIET10H: { delivery_status: 'in_transit', carrier_code: UPS, last_event_at: ago(10) },
    });
    const stalled = async () => {
      const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
      const { trackings } = await as(tenant, () =>
        suite.h.client.call.listTrackings(
          ListTrackingsRequest.fromPartial({ integration_instance_id: id, stalled: true }),
        ),
      );
      const listed = trackings.map((row) => row.tracking_number).sort();
      expect(dashboard!.stalled_count).toBe(listed.length);
      return listed;
    };
    expect(await stalled()).toEqual(['DHLQUIET99H', 'NOCARRIER99']);

    await setWatch(tenant, id, {
      replace_carrier_stalled_after_hours: true,
      carrier_stalled_after_hours: [{ carrier_code: UPS, hours: 24 }],
    });
    expect(await stalled()).toEqual(['DHLQUIET99H', 'NOCARRIER99', 'UPSQUIET30H']);

    await setWatch(tenant, id, { stalled_after_hours: 120 });
    expect(await stalled()).toEqual(['UPSQUIET30H']);
  });
});

describe('stalled and late alerts (ADR 0218)', () => {
  it('raises one alert per shipment the first time, never again: repeated passes, a second replica, a restart', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await shapedRows(tenant, id, WATCHED_SHAPES());

    await sweep().runOnce();
    // Two more passes, one of them a "new process" (a new sweep object), raise nothing.
    expect(await sweep().runOnce()).toMatchObject({ stalled: 0, late: 0 });
    expect(await sweep().runOnce()).toMatchObject({ stalled: 0, late: 0 });
    const marked = await rows(tenant, id);
    const markerOf = (number: string, field: 'stalled_alerted_at' | 'late_alerted_at') =>
      marked.find((row) => row.tracking_number === number)![field];
    expect(markerOf('STALLED0001', 'stalled_alerted_at')).toBeInstanceOf(Date);
    expect(markerOf('LATE0000001', 'late_alerted_at')).toBeInstanceOf(Date);
    for (const quiet of ['MOVING00001', 'DELIVERED01', 'STOPPED0001'])
      expect([markerOf(quiet, 'stalled_alerted_at'), markerOf(quiet, 'late_alerted_at')]).toEqual([
        null,
        null,
      ]);

    const alerts = await eventually(async () => {
      const found = await alertsOf(tenant);
      expect(found).toHaveLength(2);
      return found;
    }, 10_000);
    const stalledAlert = alerts.find((alert) => alert.kind === 'shipment_stalled')!;
    expect(stalledAlert).toMatchObject({ title: 'Shipment stalled', recipient_user_id: 0 });
    // It opens the shipment's page in the web app, its checkpoint timeline.
    const stalledRow = marked.find((row) => row.tracking_number === 'STALLED0001')!;
    expect(stalledAlert.link).toBe(`/integrations/parcel-tracking/trackings/${stalledRow.id}`);
    expect(stalledAlert.message).toContain('STALLED0001');
    expect(stalledAlert.message).toContain('more than 72 hours');
    expect(JSON.parse(stalledAlert.properties_json)).toMatchObject({
      integration_instance_id: id,
      tracking_number: 'STALLED0001',
      stalled_after_hours: 72,
    });
    const lateAlert = alerts.find((alert) => alert.kind === 'shipment_late')!;
    expect(lateAlert.message).toContain('LATE0000001');
    expect(lateAlert.message).toContain('is not delivered');

    // A replica started afterwards runs its own sweep on its own clock: it alerts a shipment that
    // stalls now, and none of those alerted before.
    const replica = await startReplica(suite.h, { SHIPMENT_WATCH_INTERVAL_MS: '50' });
    try {
      await shapedRows(tenant, id, {
        STALLED0002: { delivery_status: 'in_transit', last_event_at: ago(80) },
      });
      await eventually(async () => {
        const row = (await rows(tenant, id)).find((r) => r.tracking_number === 'STALLED0002');
        expect(row!.stalled_alerted_at).toBeInstanceOf(Date);
      }, 15_000);
    } finally {
      await replica.stop();
    }
    const after = await rows(tenant, id);
    const markerAfter = (number: string, field: 'stalled_alerted_at' | 'late_alerted_at') =>
      after.find((row) => row.tracking_number === number)![field];
    expect(markerAfter('STALLED0001', 'stalled_alerted_at')).toEqual(
      markerOf('STALLED0001', 'stalled_alerted_at'),
    );
    expect(markerAfter('LATE0000001', 'late_alerted_at')).toEqual(
      markerOf('LATE0000001', 'late_alerted_at'),
    );
    const kinds = await eventually(async () => {
      const found = await alertsOf(tenant);
      expect(found).toHaveLength(3);
      return found.map((alert) => JSON.parse(alert.properties_json).tracking_number as string);
    }, 10_000);
    expect(kinds.sort()).toEqual(['LATE0000001', 'STALLED0001', 'STALLED0002']);
  });

  it('raises none while a switch is off, and another tenant’s rows are never its alerts', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    const other = newTenant();
    const otherId = await create(other);
    await setWatch(tenant, id, { stalled_alert: false, late_alert: false });
    await shapedRows(tenant, id, {
      SILENT00001: {
        delivery_status: 'in_transit',
        last_event_at: ago(100),
        estimated_delivery_at: ago(24),
      },
    });
    await shapedRows(other, otherId, {
      THEIRS00001: { delivery_status: 'in_transit', last_event_at: ago(100) },
    });
    const now = () => new Date();
    await sweep(now).runOnce();
    const [silent] = await rows(tenant, id);
    expect([silent!.stalled_alerted_at, silent!.late_alerted_at]).toEqual([null, null]);
    const [theirs] = await rows(other, otherId);
    expect(theirs!.stalled_alerted_at).toBeInstanceOf(Date);
    const theirAlerts = await eventually(async () => {
      const found = await alertsOf(other);
      expect(found).toHaveLength(1);
      return found;
    }, 10_000);
    expect(theirAlerts[0]!.message).toContain('THEIRS00001');

    // Turned on later, the switch alerts the shipment that is stalled and late now, once each.
    await setWatch(tenant, id, { stalled_alert: true, late_alert: true });
    await sweep(now).runOnce();
    const kinds = await eventually(async () => {
      const found = await alertsOf(tenant);
      expect(found).toHaveLength(2);
      return found.map((alert) => alert.kind).sort();
    }, 10_000);
    expect(kinds).toEqual(['shipment_late', 'shipment_stalled']);
  });
});
