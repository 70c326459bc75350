import { AlertRaised } from '@inventory/contracts/events/v1/alert.js';
import { describe, expect, it } from 'vitest';
import { as, eventually, startReplica } from './harness.js';
import { useInstanceSuite } from './instance-suite.js';
import { streamMessages } from './tracking-suite.js';
import { forecastSince, quotaForecast } from '../src/domain/quota-forecast.js';

const suite = useInstanceSuite();
const { newTenant, create } = suite;
const DAY = 24 * 3600 * 1000;

/** The forecast alerts published for a tenant, once the outbox has published everything. */
async function forecastAlerts(tenant: string) {
  await eventually(async () => {
    expect(await suite.h.stored('outbox').countDocuments({})).toBe(0);
  }, 10_000);
  return (await streamMessages(suite.h, 'ACTIVITY', 'activity.alert.raised', tenant))
    .map((envelope) => AlertRaised.decode(envelope.payload))
    .filter((alert) => alert.kind === 'quota_forecast');
}

/**
 * `spent` registrations spread over the forecast's 14 UTC days, today included: noon of each past
 * day, and now for today (its noon may still be ahead).
 */
function registrationTimes(spent: number): Date[] {
  const now = Date.now();
  const today = forecastSince(new Date(now)).getTime() + 13 * DAY;
  return Array.from({ length: spent }, (_, i) => {
    const daysAgo = i % 14;
    return new Date(daysAgo === 0 ? now : today - daysAgo * DAY + 12 * 3600_000);
  });
}

/**
 * An instance on a fresh key with `quotaTotal` units (none used), and `spent` rows registered
 * over the forecast's window, the history it reads.
 */
async function seeded(quotaTotal: number, spent: number) {
  const key = `forecast_key_${Date.now()}_${Math.random().toString(36).slice(2)}`;
  suite.h.sim.addKey({ key, quotaTotal });
  const tenant = newTenant();
  const { instance } = await create(tenant, { api_key: key });
  const id = instance!.id;
  const base = suite.rowBase(tenant, id);
  for (const [i, registered_at] of registrationTimes(spent).entries())
    await suite.h.stores.trackings.insert({
      ...base,
      trackable_id: i + 1,
      tracking_number: `FC${String(i).padStart(8, '0')}`,
      delivery_status: 'in_transit',
      registered_at,
    });
  const dashboard = async (client = suite.h.client) =>
    (await as(tenant, () => client.call.getInstance({ id }))).dashboard!;
  const setAlertDays = (days: number) =>
    as(tenant, () =>
      suite.h.client.call.updateInstance({
        id,
        input_violations: [],
        quota_forecast_alert_days: days,
      }),
    );
  return { key, tenant, id, base, dashboard, setAlertDays };
}

describe('quota forecast', () => {
  it('foresees the quota’s end at the units spent per day over the last 14 UTC days', async () => {
    // 28 registrations in 13 to 14 days: about 2 a day; 101 units left last about 50 days.
    const { tenant, id, base, dashboard } = await seeded(101, 28);
    const { trackings } = suite.h.stores;
    // Not counted: registered before the window, a re-used registration, unregistered rows,
    // another tenant's rows.
    await trackings.insert({
      ...base,
      tracking_number: 'OLD00001',
      delivery_status: 'delivered',
      registered_at: new Date(forecastSince(new Date()).getTime() - 3600_000),
    });
    await trackings.insert({
      ...base,
      tracking_number: 'REUSED001',
      delivery_status: 'in_transit',
      registered_at: new Date(),
      registration_reused_at: new Date(),
    });
    await trackings.insert({ ...base, tracking_number: 'PENDING01', delivery_status: 'pending' });
    await trackings.insert({
      ...base,
      tenant_id: 'someone-else',
      tracking_number: 'X0000001',
      delivery_status: 'in_transit',
      registered_at: new Date(),
    });
    const before = Date.now();
    const { quota_forecast, quota_units_saved } = await dashboard();
    const after = Date.now();
    expect(quota_units_saved).toBe(0);
    // The forecast of 28 spent units at either end of the read (the window grows meanwhile).
    const expected = [before, after].map((at) => {
      const forecast = quotaForecast(new Date(at), 101, 28);
      return { ...forecast, days_left: forecast.days_left!, exhausted_on: forecast.exhausted_on! };
    });
    expect(expected).toContainEqual(quota_forecast);
    expect(quota_forecast!.days_left).toBeGreaterThanOrEqual(46);
    expect(quota_forecast!.days_left).toBeLessThanOrEqual(50);
    expect(
      (await as(tenant, () => suite.h.client.call.getInstance({ id }))).instance,
    ).toMatchObject({ quota_forecast_alert_days: 0 });
  });

  it('has no end without registrations in the window, nor when the quota cannot be read', async () => {
    const { dashboard } = await seeded(100, 0);
    expect((await dashboard()).quota_forecast).toEqual({
      days_left: undefined,
      exhausted_on: undefined,
      daily_rate: 0,
      window_days: 14,
    });
    const withRows = await seeded(100, 14);
    suite.h.sim.failNext('getquota', { httpStatus: 500 });
    const failed = await withRows.dashboard();
    expect(failed.quota).toBeUndefined();
    expect(failed.quota_forecast).toMatchObject({ days_left: undefined, window_days: 14 });
    expect(failed.quota_forecast!.daily_rate).toBeGreaterThanOrEqual(1);
  });

  it('alerts once when days left fall under the setting, not on later reads nor after a restart, and again after rising', async () => {
    // About 2 a day, 100 left: 46 to 50 days.
    const { key, tenant, dashboard, setAlertDays } = await seeded(100, 28);
    await dashboard();
    expect(await forecastAlerts(tenant)).toEqual([]);

    await setAlertDays(60);
    expect((await dashboard()).quota_forecast?.days_left).toBeLessThan(60);
    await dashboard();
    let alerts = await forecastAlerts(tenant);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: 'quota_forecast', priority: 'normal' });
    expect(JSON.parse(alerts[0]!.properties_json)).toMatchObject({
      days_left: expect.any(Number),
      alert_days: 60,
      window_days: 14,
    });

    // Another replica (a restart) reading the same forecast raises nothing new.
    const replica = await startReplica(suite.h, { QUOTA_CACHE_TTL_MS: '0' });
    try {
      await dashboard(replica.client);
    } finally {
      await replica.stop();
    }
    expect(await forecastAlerts(tenant)).toHaveLength(1);

    // A bigger quota: 139 to 150 days left, above the setting, re-arms; back under it alerts again.
    suite.h.sim.addKey({ key, quotaTotal: 300 });
    expect((await dashboard()).quota_forecast?.days_left).toBeGreaterThanOrEqual(60);
    expect(await forecastAlerts(tenant)).toHaveLength(1);
    suite.h.sim.addKey({ key, quotaTotal: 80 });
    expect((await dashboard()).quota_forecast?.days_left).toBeLessThan(60);
    await dashboard();
    alerts = await forecastAlerts(tenant);
    expect(alerts).toHaveLength(2);
    expect(new Set(alerts.map((alert) => alert.key)).size).toBe(2);
  });

  it('is off at 0, and a new setting re-arms it', async () => {
    const { tenant, dashboard, setAlertDays } = await seeded(10, 28); // 4 or 5 days left
    await dashboard();
    expect(await forecastAlerts(tenant)).toEqual([]);
    await setAlertDays(7);
    await dashboard();
    expect(await forecastAlerts(tenant)).toHaveLength(1);
    await setAlertDays(6);
    await dashboard();
    expect(await forecastAlerts(tenant)).toHaveLength(2);
  });

  it('refuses a setting that is not 0-365 whole days, writing nothing', async () => {
    const { tenant, id, setAlertDays } = await seeded(10, 0);
    for (const days of [-1, 366])
      await expect(setAlertDays(days)).rejects.toMatchObject({ code: 3 });
    const { instance } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(instance!.quota_forecast_alert_days).toBe(0);
    await setAlertDays(365);
    const updated = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(updated.instance!.quota_forecast_alert_days).toBe(365);
  });
});
