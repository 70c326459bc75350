import { describe, expect, it } from 'vitest';
import { as } from './harness.js';
import { useInstanceSuite } from './instance-suite.js';

const suite = useInstanceSuite();
const { newTenant, create } = suite;
const DAY = 86_400_000;

/** The UTC midnight `days` days before today's. */
const midnight = (daysAgo: number) => new Date((Math.floor(Date.now() / DAY) - daysAgo) * DAY);
const at = (day: Date, hours: number) => new Date(day.getTime() + hours * 3_600_000);

describe('GetInstance transit, summed where the rows are', () => {
  it('counts days from pick-up or else creation, on time to the end of the estimated UTC day, per carrier and overall, within 90 days', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    const base = { ...suite.rowBase(tenant, id), delivery_status: 'delivered' as const };
    const { trackings } = suite.h.stores;
    const ups = { carrier_code: 100002, carrier_name: 'UPS' };
    const estimateDay = midnight(10);
    // 2 days from pick-up; delivered in the last minute of the estimated day: on time.
    await trackings.insert({
      ...base,
      ...ups,
      tracking_number: 'U1',
      created_at: at(estimateDay, -100),
      picked_up_at: at(estimateDay, -48 + 23.99),
      delivered_at: at(estimateDay, 23.99),
      estimated_delivery_at: at(estimateDay, 9),
    });
    // 4 days from pick-up; delivered at the first instant after the estimated day: late.
    await trackings.insert({
      ...base,
      ...ups,
      carrier_name: null,
      tracking_number: 'U2',
      created_at: at(estimateDay, -200),
      picked_up_at: at(estimateDay, 24 - 96),
      delivered_at: at(estimateDay, 24),
      // An estimate's time of day does not extend its day.
      estimated_delivery_at: at(estimateDay, 9),
    });
    // No pick-up: 3 days from creation; no estimate: out of the rate; no carrier at all.
    await trackings.insert({
      ...base,
      tracking_number: 'N1',
      created_at: at(midnight(5), 0),
      delivered_at: at(midnight(2), 0),
    });
    // Delivered 91 days ago, another tenant's, and a row not delivered: none of them counts.
    await trackings.insert({
      ...base,
      ...ups,
      tracking_number: 'OLD',
      created_at: at(midnight(95), 0),
      delivered_at: at(midnight(91), 0),
    });
    await trackings.insert({
      ...base,
      ...ups,
      tenant_id: 'someone-else',
      tracking_number: 'X1',
      created_at: at(midnight(5), 0),
      delivered_at: at(midnight(4), 0),
    });
    await trackings.insert({
      ...base,
      ...ups,
      tracking_number: 'T1',
      delivery_status: 'in_transit',
    });

    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard!.transit).toEqual({
      window_days: 90,
      overall: {
        delivered_count: 3,
        average_days_in_transit: 3,
        with_estimate_count: 2,
        on_time_count: 1,
        on_time_rate: 50,
      },
      carriers: [
        {
          carrier_code: 100002,
          carrier_name: 'UPS',
          stats: {
            delivered_count: 2,
            average_days_in_transit: 3,
            with_estimate_count: 2,
            on_time_count: 1,
            on_time_rate: 50,
          },
        },
        // No carrier, no name and no rate: the answer leaves them out.
        {
          stats: {
            delivered_count: 1,
            average_days_in_transit: 3,
            with_estimate_count: 0,
            on_time_count: 0,
          },
        },
      ],
    });
  });
});
