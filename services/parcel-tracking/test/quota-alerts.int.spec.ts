import { ActivityRecorded } from '@inventory/contracts/events/v1/activity.js';
import { AlertRaised } from '@inventory/contracts/events/v1/alert.js';
import { describe, expect, it } from 'vitest';
import { as, eventually } from './harness.js';
import { numbers, streamMessages, useTrackingSuite } from './tracking-suite.js';

const suite = useTrackingSuite();
const { newTenant, create, rows, register, pendingRows } = suite;

/** Alerts and quota_exceeded rows, once the outbox has published everything. */
async function published(tenant: string) {
  await eventually(async () => {
    expect(await suite.h.stored('outbox').countDocuments({})).toBe(0);
  }, 10_000);
  const alerts = (await streamMessages(suite.h, 'ACTIVITY', 'activity.alert.raised', tenant)).map(
    (envelope) => AlertRaised.decode(envelope.payload),
  );
  const exceeded = (await streamMessages(suite.h, 'ACTIVITY', 'activity.recorded', tenant))
    .map((envelope) => ActivityRecorded.decode(envelope.payload))
    .filter((activity) => activity.event === 'quota_exceeded');
  return { alerts, exceeded };
}

describe('quota alerts', () => {
  it('warn once at the threshold, exhaust once at 100 percent with quota_exceeded; a new threshold re-arms', async () => {
    const key = `quota_key_${Date.now()}`;
    suite.h.sim.addKey({ key, quotaTotal: 10 });
    const tenant = newTenant();
    const id = await create(tenant, { api_key: key });

    await pendingRows(tenant, id, numbers('QA', 7, 6));
    await register();
    expect((await published(tenant)).alerts).toEqual([]);

    await pendingRows(tenant, id, numbers('QB', 1, 6)); // 8 of 10 = 80 percent
    await register();
    await pendingRows(tenant, id, numbers('QC', 1, 6)); // 90 percent: same crossing, no second warning
    await register();
    let seen = await published(tenant);
    expect(seen.alerts.map((alert) => [alert.kind, alert.priority])).toEqual([
      ['quota_warning', 'normal'],
    ]);
    // It opens the parcel-tracking dashboard of the web app, where the quota is.
    expect(seen.alerts[0]!.link).toBe('/integrations/parcel-tracking');
    expect(JSON.parse(seen.alerts[0]!.properties_json)).toMatchObject({
      integration_instance_id: id,
      used: 8,
      total: 10,
    });

    await pendingRows(tenant, id, numbers('QD', 2, 6)); // 10 of 10, then one rejected (quota exhausted)
    await register();
    seen = await published(tenant);
    expect(seen.alerts.map((alert) => [alert.kind, alert.priority])).toEqual([
      ['quota_warning', 'normal'],
      ['quota_exhausted', 'high'],
    ]);
    expect(seen.exceeded).toHaveLength(1);
    expect(seen.exceeded[0]!.causer_id).toBeUndefined();
    expect(JSON.parse(seen.exceeded[0]!.properties_json).integration_instance_id).toBe(id);
    expect(seen.exceeded[0]!.integration_instance_id).toBe(id);
    expect((await rows(tenant, id)).filter((row) => row.registration_error)).toHaveLength(1);

    // Reading the quota again (the dashboard) raises nothing new.
    await as(tenant, () => suite.h.client.call.getInstance({ id }));
    await register();
    expect((await published(tenant)).alerts).toHaveLength(2);

    // A new threshold re-arms: the next quota read reaches both levels again (usage is 100), so
    // both alerts are raised once more, the warning first.
    await as(tenant, () =>
      suite.h.client.call.updateInstance({ id, input_violations: [], quota_alert_threshold: 50 }),
    );
    await as(tenant, () => suite.h.client.call.getInstance({ id }));
    seen = await published(tenant);
    expect(seen.alerts.map((alert) => alert.kind)).toEqual([
      'quota_warning',
      'quota_exhausted',
      'quota_warning',
      'quota_exhausted',
    ]);
    expect(new Set(seen.alerts.map((alert) => alert.key)).size).toBe(4);
    expect(seen.exceeded).toHaveLength(2);
  });

  it('the registration worker raises the forecast alert after its pass, once', async () => {
    const key = `forecast_worker_${Date.now()}`;
    suite.h.sim.addKey({ key, quotaTotal: 20 });
    const tenant = newTenant();
    const id = await create(tenant, { api_key: key });
    await as(tenant, () =>
      suite.h.client.call.updateInstance({
        id,
        input_violations: [],
        quota_forecast_alert_days: 30,
      }),
    );
    // 14 units spent today: 14 days at most for the 6 left, under 30.
    await pendingRows(tenant, id, numbers('QF', 14, 6));
    await register();
    await register();
    const forecasts = (await published(tenant)).alerts.filter(
      (alert) => alert.kind === 'quota_forecast',
    );
    expect(forecasts).toHaveLength(1);
    expect(JSON.parse(forecasts[0]!.properties_json)).toMatchObject({
      integration_instance_id: id,
      alert_days: 30,
    });
  });
});
