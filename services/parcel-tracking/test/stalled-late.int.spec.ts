import { ListTrackingsRequest } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { describe, expect, it } from 'vitest';
import { as } from './harness.js';
import { useTrackingSuite } from './tracking-suite.js';

const suite = useTrackingSuite();
const { newTenant, create, pendingRows, rows } = suite;

const HOUR = 3600_000;

describe('stalled and late shipments (ADR 0218)', () => {
  it('counts them on the dashboard and filters the list by each, and by both', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    const now = Date.now();
    const ago = (hours: number) => new Date(now - hours * HOUR);
    const shape: Record<string, Record<string, unknown>> = {
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
      BOTH0000001: {
        delivery_status: 'in_transit',
        last_event_at: ago(100),
        estimated_delivery_at: ago(24),
      },
    };
    await pendingRows(tenant, id, Object.keys(shape));
    const stored = suite.h.stored('tracking_rows');
    for (const [number, fields] of Object.entries(shape))
      await stored.updateOne({ tenant_id: tenant, tracking_number: number }, { $set: fields });

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
