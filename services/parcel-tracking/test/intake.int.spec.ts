import { describe, expect, it } from 'vitest';
import { ActivityRecorded } from '@inventory/contracts/events/v1/activity.js';
import { as, eventually } from './harness.js';
import { streamMessages, useTrackingSuite } from './tracking-suite.js';

const suite = useTrackingSuite();
const { newTenant, create, assign, change, remove, rows, waitForRows } = suite;

const activities = async (tenant: string) =>
  (await streamMessages(suite.h, 'ACTIVITY', 'activity.recorded', tenant)).map((envelope) =>
    ActivityRecorded.decode(envelope.payload),
  );

describe('shipment intake', () => {
  it('an assigned number becomes one pending row with the event fields; redelivery makes no second row', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    const at = new Date();
    await assign(tenant, { trackable_id: 7, tracking_number: ' 1z999aa10123456784 ' }, at);
    await assign(tenant, { trackable_id: 7, tracking_number: '1Z999AA10123456784' }, at);
    await assign(tenant, { trackable_id: 8, tracking_number: 'JJD0123456789' });
    await waitForRows(tenant, id, (row) => row.trackable_id === 8);
    const all = await rows(tenant, id);
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({
      trackable_type: 'inbound_shipment',
      trackable_id: 7,
      trackable_label: 'IS-1',
      trackable_url: '/inbound-shipments/1',
      tracking_number: '1Z999AA10123456784',
      delivery_status: 'pending',
      registered_at: null,
      stopped_at: null,
    });
  });

  it('a changed number stops the old row and tracks the new one; a removal stops it; an older event never resurrects it', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    const first = new Date(Date.now() - 60_000);
    await assign(
      tenant,
      { trackable_type: 'rma', trackable_id: 3, tracking_number: 'OLD12345' },
      first,
    );
    await waitForRows(tenant, id, (row) => row.tracking_number === 'OLD12345');
    await change(tenant, 'rma', 3, 'NEW12345');
    const [fresh] = await waitForRows(tenant, id, (row) => row.tracking_number === 'NEW12345');
    expect(fresh!.stopped_at).toBeNull();
    const [old] = await waitForRows(
      tenant,
      id,
      (row) => row.tracking_number === 'OLD12345' && row.stopped_at !== null,
    );
    expect(old!.active).toBe(false);

    await remove(tenant, 'rma', 3);
    await waitForRows(
      tenant,
      id,
      (row) => row.tracking_number === 'NEW12345' && row.stopped_at !== null,
    );
    // The original assignment, redelivered late (older than the removal): nothing comes back.
    await assign(
      tenant,
      { trackable_type: 'rma', trackable_id: 3, tracking_number: 'OLD12345' },
      first,
    );
    await assign(tenant, { trackable_type: 'rma', trackable_id: 4, tracking_number: 'MARKER123' });
    await waitForRows(tenant, id, (row) => row.tracking_number === 'MARKER123');
    const active = (await rows(tenant, id)).filter((row) => row.trackable_id === 3 && row.active);
    expect(active).toEqual([]);
    expect((await rows(tenant, id)).filter((row) => row.trackable_id === 3)).toHaveLength(2);
  });

  it('untracked shipments are remembered and backfilled when a flag or channel is switched on', async () => {
    const tenant = newTenant();
    const id = await create(tenant, {
      auto_track: { rmas: false },
      auto_track_channels: { default_scope: 'none', channels: {} },
    });
    await assign(tenant, { trackable_type: 'rma', trackable_id: 1, tracking_number: 'RMA000001' });
    await assign(tenant, {
      trackable_type: 'sales_order_fulfillment',
      trackable_id: 2,
      tracking_number: 'SOF000002',
      sales_channel_id: 5,
      sub_channel_id: 51,
    });
    await assign(tenant, {
      trackable_type: 'warehouse_transfer_shipment',
      trackable_id: 9,
      tracking_number: 'WTS000009',
    });
    await waitForRows(tenant, id, (row) => row.tracking_number === 'WTS000009');
    expect((await rows(tenant, id)).map((row) => row.tracking_number)).toEqual(['WTS000009']);

    await as(tenant, () =>
      suite.h.client.call.updateInstance({ id, input_violations: [], auto_track: { rmas: true } }),
    );
    await waitForRows(tenant, id, (row) => row.tracking_number === 'RMA000001');
    await as(tenant, () =>
      suite.h.client.call.updateInstance({
        id,
        input_violations: [],
        auto_track_channels: { channels: { '5': { sub_channels: { '51': true } } } },
      }),
    );
    await waitForRows(tenant, id, (row) => row.tracking_number === 'SOF000002');
    expect(await rows(tenant, id)).toHaveLength(3);
  });

  it('connecting an instance backfills remembered shipments its settings track, between backfill_started and backfill_completed', async () => {
    const tenant = newTenant();
    await assign(tenant, { trackable_id: 1, tracking_number: 'EARLY0001' });
    await assign(tenant, { trackable_type: 'rma', trackable_id: 2, tracking_number: 'EARLY0002' });
    await assign(tenant, {
      trackable_type: 'vendor_credit_shipment',
      trackable_id: 3,
      tracking_number: 'EARLY0003',
    });
    await remove(tenant, 'vendor_credit_shipment', 3);
    // Intake with no instance leaves nothing to wait on but the shipments themselves.
    await eventually(async () => {
      const remembered = await suite.h.stores.shipments.withNumber(tenant);
      expect(remembered.map((s) => s.tracking_number).sort()).toEqual(['EARLY0001', 'EARLY0002']);
    }, 15_000);
    const id = await create(tenant, { auto_track: { rmas: false } });
    await waitForRows(tenant, id, (row) => row.tracking_number === 'EARLY0001');
    const recorded = await eventually(async () => {
      const rowsOf = (await activities(tenant)).filter((a) => a.event.startsWith('backfill'));
      expect(rowsOf.map((a) => a.event)).toEqual(['backfill_started', 'backfill_completed']);
      return rowsOf;
    }, 15_000);
    expect(JSON.parse(recorded[1]!.properties_json)).toMatchObject({
      integration_instance_id: id,
      reason: 'connected',
      shipments_count: 2,
      created: 1,
      not_tracked: 1,
    });
    expect(recorded[0]!.integration_instance_id).toBe(id);
    expect((await rows(tenant, id)).map((row) => row.tracking_number)).toEqual(['EARLY0001']);
  });

  it('ugly events: an absolute URL becomes relative, a huge label is cut, an implausible number makes no row', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await assign(tenant, { trackable_id: 1, tracking_number: 'X'.repeat(500) });
    await assign(tenant, { trackable_id: 2, tracking_number: 'has spaces 123' });
    await assign(tenant, {
      trackable_id: 3,
      tracking_number: 'UGLY00003',
      trackable_url: 'https://evil.example/inbound-shipments/3?x=1',
      trackable_label: 'L'.repeat(10_000),
    });
    const [row] = await waitForRows(tenant, id, (r) => r.tracking_number === 'UGLY00003');
    expect(row!.trackable_url).toBe('/inbound-shipments/3?x=1');
    expect(row!.trackable_label).toHaveLength(255);
    // Same consumer, in order: the two before it were handled and made nothing.
    expect(await rows(tenant, id)).toHaveLength(1);
  });
});
