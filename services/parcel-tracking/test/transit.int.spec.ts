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

describe('GetInstance transit, whole days kept (ADR 0239)', () => {
  const ups = { carrier_code: 100002, carrier_name: 'UPS' };
  let webhookEventId = 50_000;

  async function instanceWithRows(tenant: string) {
    const { instance } = await create(tenant);
    const id = instance!.id;
    const base = { ...suite.rowBase(tenant, id), delivery_status: 'delivered' as const, ...ups };
    const { trackings } = suite.h.stores;
    // Two days in transit, delivered 20 days ago on its estimated day: on time.
    await trackings.insert({
      ...base,
      tracking_number: 'K1',
      created_at: at(midnight(22), 8),
      delivered_at: at(midnight(20), 8),
      estimated_delivery_at: at(midnight(20), 0),
    });
    return { id, base };
  }

  const transitOf = async (tenant: string, id: number) =>
    (await as(tenant, () => suite.h.client.call.getInstance({ id }))).dashboard!.transit!;
  const kept = (tenant: string) =>
    suite.h.stored('transit_days').findOne({ tenant_id: tenant }) as Promise<{
      computed_at: Date;
      days: Array<{ day: string; carriers: Array<{ delivered_count: number }> }>;
    } | null>;

  it('keeps every whole day of the window after a read, and answers the next read from them', async () => {
    const tenant = newTenant();
    const { id } = await instanceWithRows(tenant);
    const first = await transitOf(tenant, id);
    expect(first.overall).toMatchObject({ delivered_count: 1, average_days_in_transit: 2 });

    const document = await kept(tenant);
    // 90 days back from now: the partial first day and today are read, the 89 between are kept.
    expect(document!.days).toHaveLength(89);
    const twentyDaysAgo = midnight(20).toISOString().slice(0, 10);
    expect(document!.days.find((day) => day.day === twentyDaysAgo)!.carriers).toMatchObject([
      { carrier_code: 100002, delivered_count: 1, on_time_count: 1 },
    ]);

    // The trends count each day's deliveries from the same kept sums, on a read that uses them.
    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard!.trends!.daily.find((day) => day.date === twentyDaysAgo)).toMatchObject({
      delivered: 1,
    });
    expect(dashboard!.trends!.daily.reduce((sum, day) => sum + day.delivered, 0)).toBe(1);

    // A change no write marks (only a test can make one), on a row delivered and marked an hour
    // ago: not seen, the kept day answers.
    await suite.h.stored('tracking_rows').updateOne(
      { tenant_id: tenant, tracking_number: 'K1' },
      {
        $set: {
          created_at: at(midnight(30), 8),
          transit_changed_at: new Date(Date.now() - 3_600_000),
        },
      },
    );
    expect((await transitOf(tenant, id)).overall!.average_days_in_transit).toBe(2);
    // Without the kept sums the rows are read again: the cache is the only thing that held it.
    await suite.h.stored('transit_days').deleteOne({ tenant_id: tenant });
    expect((await transitOf(tenant, id)).overall!.average_days_in_transit).toBe(10);
  });

  it('reads again a kept day that gains a delivered row, through an insert or a provider update', async () => {
    const tenant = newTenant();
    const { id, base } = await instanceWithRows(tenant);
    expect((await transitOf(tenant, id)).overall!.delivered_count).toBe(1);

    // Stored delivered into a kept day.
    await suite.h.stores.trackings.insert({
      ...base,
      tracking_number: 'K2',
      created_at: at(midnight(21), 8),
      delivered_at: at(midnight(20), 20),
    });
    expect((await transitOf(tenant, id)).overall!.delivered_count).toBe(2);

    // A provider update delivers an in-transit row with an event ten days old: a late push.
    await suite.h.stores.trackings.insert({
      ...base,
      tracking_number: 'K3',
      delivery_status: 'in_transit',
      delivered_at: null,
      estimated_delivery_at: null,
      created_at: at(midnight(14), 8),
    });
    const deliver = (latest: Date, estimate: Date) =>
      as(tenant, () =>
        suite.h.client.call.applyTrackingUpdate({
          integration_instance_id: id,
          webhook_event_id: ++webhookEventId,
          update: {
            event_type: 'TRACKING_UPDATED',
            tracking_number: 'K3',
            carrier_code: ups.carrier_code,
            provider_status: 'Delivered',
            latest_event_at: latest,
            estimated_delivery_at: estimate,
            checkpoints: [],
          },
        }),
      );
    await deliver(at(midnight(10), 8), at(midnight(12), 0));
    const afterDelivery = await transitOf(tenant, id);
    expect(afterDelivery.overall).toMatchObject({
      delivered_count: 3,
      with_estimate_count: 2,
      on_time_count: 1,
    });

    // As if delivered an hour ago (its mark out of the margin), with the sums kept since.
    await suite.h
      .stored('tracking_rows')
      .updateMany(
        { tenant_id: tenant },
        { $set: { transit_changed_at: new Date(Date.now() - 3_600_000) } },
      );
    await suite.h
      .stored('transit_days')
      .updateOne({ tenant_id: tenant }, { $set: { computed_at: new Date(Date.now() - 1000) } });
    expect((await transitOf(tenant, id)).overall!.on_time_count).toBe(1);
    // A later event moves the delivered row's estimate: its day is read again, now on time.
    await deliver(at(midnight(10), 9), at(midnight(10), 0));
    expect((await transitOf(tenant, id)).overall!).toMatchObject({
      delivered_count: 3,
      with_estimate_count: 2,
      on_time_count: 2,
    });
  });

  it('reads again a day whose change was stamped up to five minutes before the sums were kept', async () => {
    const tenant = newTenant();
    const { id } = await instanceWithRows(tenant);
    await transitOf(tenant, id);
    const { computed_at: computedAt } = (await kept(tenant))!;
    // As another replica whose clock runs four minutes behind would stamp a later change.
    await suite.h.stored('tracking_rows').updateOne(
      { tenant_id: tenant, tracking_number: 'K1' },
      {
        $set: {
          estimated_delivery_at: at(midnight(21), 0),
          transit_changed_at: new Date(computedAt.getTime() - 4 * 60_000),
        },
      },
    );
    expect((await transitOf(tenant, id)).overall!.on_time_count).toBe(0);
  });

  it('counts the first day from the window start exactly and today up to now, neither kept', async () => {
    const tenant = newTenant();
    const { id, base } = await instanceWithRows(tenant);
    const start = Date.now() - 90 * DAY;
    for (const [number, deliveredAt] of [
      ['IN', new Date(start + 10 * 60_000)],
      ['OUT', new Date(start - 10 * 60_000)],
      ['TODAY', new Date(Date.now() - 1000)],
    ] as const) {
      await suite.h.stores.trackings.insert({
        ...base,
        tracking_number: number,
        created_at: new Date(deliveredAt.getTime() - DAY),
        delivered_at: deliveredAt,
      });
    }
    expect((await transitOf(tenant, id)).overall!.delivered_count).toBe(3);
    // Read again, with the whole days kept: the same rows count.
    expect((await transitOf(tenant, id)).overall!.delivered_count).toBe(3);
    const days = (await kept(tenant))!.days.map((day) => day.day);
    expect(days).not.toContain(new Date().toISOString().slice(0, 10));
    expect(days).not.toContain(new Date(start).toISOString().slice(0, 10));
  });

  it('forgets the kept sums when the instance is disconnected', async () => {
    const tenant = newTenant();
    const { id } = await instanceWithRows(tenant);
    await transitOf(tenant, id);
    expect(await kept(tenant)).not.toBeNull();
    await as(tenant, () => suite.h.client.call.deleteInstance({ id }));
    expect(await kept(tenant)).toBeNull();
  });
});
