import { describe, expect, it } from 'vitest';
import { as } from './harness.js';
import { useInstanceSuite } from './instance-suite.js';

const suite = useInstanceSuite();
const { newTenant, create } = suite;
const DAY = 24 * 3600 * 1000;
const dateOf = (at: number) => new Date(at).toISOString().slice(0, 10);

describe('GetInstance trends', () => {
  it('counts rows registered and delivered per UTC day over the last 30 days, zero-filled, oldest first', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    const base = suite.rowBase(tenant, id);
    const { trackings } = suite.h.stores;
    const now = Date.now();
    const today = Date.UTC(
      new Date(now).getUTCFullYear(),
      new Date(now).getUTCMonth(),
      new Date(now).getUTCDate(),
    );
    // Noon of a day keeps each row inside its UTC day whatever the hour the test runs.
    const noon = (daysAgo: number) => new Date(today - daysAgo * DAY + 12 * 3600_000);
    const row = (number: string, fields: Record<string, unknown>) =>
      trackings.insert({
        ...base,
        tracking_number: number,
        delivery_status: 'in_transit',
        ...fields,
      });
    await row('A1', { registered_at: noon(3) });
    await row('A2', { registered_at: noon(3) });
    await row('A3', {
      registered_at: noon(5),
      delivery_status: 'delivered',
      delivered_at: noon(3),
    });
    await row('A4', { registered_at: noon(29) });
    // Outside the window (30 days ago), unregistered, or another tenant's: not counted.
    await row('OLD', {
      registered_at: noon(30),
      delivery_status: 'delivered',
      delivered_at: noon(30),
    });
    await row('NEW', { delivery_status: 'pending' });
    await row('X1', { tenant_id: 'someone-else', registered_at: noon(3) });

    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    const { days, daily } = dashboard!.trends!;
    expect(days).toBe(30);
    expect(daily.map((day) => day.date)).toEqual(
      Array.from({ length: 30 }, (_, i) => dateOf(today - (29 - i) * DAY)),
    );
    const counted = daily.filter((day) => day.registered > 0 || day.delivered > 0);
    expect(counted).toEqual([
      { date: dateOf(today - 29 * DAY), registered: 1, delivered: 0 },
      { date: dateOf(today - 5 * DAY), registered: 1, delivered: 0 },
      { date: dateOf(today - 3 * DAY), registered: 2, delivered: 1 },
    ]);
  });
});
