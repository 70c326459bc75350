import { eventually } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { httpCall, loginSession } from '../../src/index.js';
import { forecastRegistrationTimes, GOOD_KEY, PREFIX, seedTrackingRows } from './harness.js';
import { useParcelSystem } from './instance-suite.js';

const suite = useParcelSystem();

describe('the quota forecast (ADR 0235) and the units saved (ADR 0236)', () => {
  it('GET answers quota_forecast and quota_units_saved after the specification’s fields', async () => {
    const { t, instance } = await suite.connected();
    const url = `${PREFIX}/instances/${instance.id}`;
    const empty = (await t.request('GET', url)).body.data;
    const keys = Object.keys(empty);
    expect(keys.slice(-3)).toEqual([
      'quota_forecast_alert_days',
      'quota_forecast',
      'quota_units_saved',
    ]);
    expect(empty).toMatchObject({
      quota_forecast_alert_days: 0,
      quota_forecast: { days_left: null, exhausted_on: null, daily_rate: 0, window_days: 14 },
      quota_units_saved: 0,
    });

    // 28 registrations over the last 13 to 14 days: the simulator's 1000 units last 464 to 500 days.
    const times = forecastRegistrationTimes(28);
    await seedTrackingRows(
      suite.p.system,
      t,
      instance.id,
      Array.from({ length: 28 }, (_, i) => ({
        tracking_number: `FORECAST${String(i).padStart(6, '0')}`,
        trackable_id: i + 1,
        delivery_status: 'in_transit',
        registered_at: times[i],
      })),
    );
    const { quota, quota_forecast } = (await t.request('GET', url)).body.data;
    expect(quota.remaining).toBe(1000);
    expect(quota_forecast.window_days).toBe(14);
    expect(quota_forecast.days_left).toBeGreaterThanOrEqual(464);
    expect(quota_forecast.days_left).toBeLessThanOrEqual(500);
    expect(quota_forecast.daily_rate).toBeGreaterThanOrEqual(2);
    expect(quota_forecast.daily_rate).toBeLessThanOrEqual(2.16);
    expect(quota_forecast.exhausted_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('one quota_forecast alert reaches the tenant’s alerts when days left fall under the setting', async () => {
    const { t, instance } = await suite.connected();
    const url = `${PREFIX}/instances/${instance.id}`;
    const times = forecastRegistrationTimes(28);
    await seedTrackingRows(
      suite.p.system,
      t,
      instance.id,
      Array.from({ length: 28 }, (_, i) => ({
        tracking_number: `ALERTED${String(i).padStart(6, '0')}`,
        trackable_id: i + 1,
        delivery_status: 'in_transit',
        registered_at: times[i],
      })),
    );
    // The setting's bounds first; then 46 to 50 days left, under 365: one alert from the reads.
    expect((await t.request('PATCH', url, { quota_forecast_alert_days: 600 })).status).toBe(422);
    expect((await t.request('PATCH', url, { quota_forecast_alert_days: 365 })).status).toBe(200);
    suite.p.sim.addKey({ key: GOOD_KEY, quotaTotal: 100 }); // 50 days left, under 365
    for (let read = 0; read < 3; read++) await t.request('GET', url);
    const session = await loginSession(t, suite.p.system.gatewayUrl);
    const alerts = await eventually(async () => {
      const response = await session.request('GET', '/api/alerts?per_page=100');
      const found = response.body.data.filter(
        (alert: { kind: string }) => alert.kind === 'quota_forecast',
      );
      if (found.length === 0) throw new Error('no forecast alert yet');
      return found;
    }, 'the forecast alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ link: '/integrations/parcel-tracking' });
  });

  it('PATCH sets quota_forecast_alert_days (0-365) and answers it', async () => {
    const { t, instance } = await suite.connected();
    const url = `${PREFIX}/instances/${instance.id}`;
    const response = await t.request('PATCH', url, { quota_forecast_alert_days: 30 });
    expect(response.status).toBe(200);
    expect(response.body.data.quota_forecast_alert_days).toBe(30);
    expect((await t.request('GET', url)).body.data.quota_forecast_alert_days).toBe(30);
    expect((await t.request('GET', `${PREFIX}/instances`)).body.data[0]).toMatchObject({
      quota_alert_threshold: 80,
      quota_forecast_alert_days: 30,
    });
    for (const days of [0, 365]) {
      const edge = await t.request('PATCH', url, { quota_forecast_alert_days: days });
      expect(edge.body.data.quota_forecast_alert_days).toBe(days);
    }
  });

  it('422 for out-of-range and wrong-typed values, NUL included; 400 for __proto__; nothing written', async () => {
    const { t, instance } = await suite.connected();
    const url = `${PREFIX}/instances/${instance.id}`;
    await t.request('PATCH', url, { quota_forecast_alert_days: 7 });
    const range = 'The quota forecast alert days field must be between 0 and 365.';
    const type = 'The quota forecast alert days field must be an integer.';
    const cases: Array<[unknown, string]> = [
      [-1, range],
      [366, range],
      [1e12, range],
      [7.5, type],
      ['7', type],
      ['7\u0000', type],
      [true, type],
      [null, type],
      [{}, type],
      [[7], type],
    ];
    for (const [value, message] of cases) {
      const response = await t.request('PATCH', url, {
        name: 'Renamed',
        quota_forecast_alert_days: value,
      });
      expect(response.status, JSON.stringify(value)).toBe(422);
      expect(response.body.errors, JSON.stringify(value)).toEqual({
        quota_forecast_alert_days: [message],
      });
    }
    const proto = await httpCall(suite.p.system.gatewayUrl, 'PATCH', url, {
      host: t.host,
      headers: { authorization: `Bearer ${t.token}` },
      rawBody: '{"quota_forecast_alert_days":{"__proto__":{"valueOf":1}}}',
    });
    expect(proto.status).toBe(400);
    expect(proto.body.code).toBe('malformed_json');
    const after = (await t.request('GET', url)).body.data;
    expect(after).toMatchObject({ name: instance.name, quota_forecast_alert_days: 7 });
  });
});
