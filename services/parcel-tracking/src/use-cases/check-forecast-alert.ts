import { alertEntry } from '@inventory/events';
import type { Outbox } from '@inventory/platform';
import {
  DEFAULT_FORECAST_ALERT_DAYS,
  forecastSince,
  nextForecastAlert,
  quotaForecast,
  type QuotaForecast,
} from '../domain/quota-forecast.js';
import type { ProviderQuota } from '../provider/client.js';
import type { InstanceDocument } from '../store/instance.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';

/** The instance's forecast from a quota read (null: it failed) and its recent registrations. */
export async function forecastQuota(
  trackings: TrackingRepository,
  instance: InstanceDocument,
  quota: ProviderQuota | null,
  now: Date,
): Promise<QuotaForecast> {
  const spent = await trackings.unitsSpentSince(
    instance.tenant_id,
    instance.id,
    forecastSince(now),
  );
  return quotaForecast(now, quota?.remaining ?? null, spent);
}

/**
 * Runs the forecast alert (ADR 0235) beside the percentage one, after the same quota reads: one
 * `quota_forecast` alert when days left fall under the tenant's setting, again only after they
 * rose to it (re-armed). The state moves by a conditional write from the state read, and the
 * alert's key carries the count raised, so repeated checks, replicas and restarts never repeat it.
 */
export async function checkForecastAlert(
  deps: { instances: InstanceRepository; outbox: Outbox },
  instance: InstanceDocument,
  forecast: QuotaForecast,
  quotaKnown: boolean,
): Promise<boolean> {
  const { instances, outbox } = deps;
  const from = instance.quota_forecast_alert_state ?? 'armed';
  const alertDays = instance.quota_forecast_alert_days ?? DEFAULT_FORECAST_ALERT_DAYS;
  const { state, fire } = nextForecastAlert(from, forecast, alertDays, quotaKnown);
  if (state === from) return false;
  const tenantId = instance.tenant_id;
  const sequence = (instance.quota_forecast_alerts_raised ?? 0) + 1;
  const entries = fire
    ? [
        alertEntry({
          tenantId,
          key: `quota_forecast:${instance.id}:${sequence}`,
          kind: 'quota_forecast',
          title: 'Parcel-tracking quota running out soon',
          message: `At ${forecast.daily_rate} registrations a day, the parcel-tracking quota runs out in ${forecast.days_left} days (${forecast.exhausted_on}); the alert is set at ${alertDays} days.`,
          link: '/integrations/parcel-tracking',
          properties: {
            integration_instance_id: instance.id,
            days_left: forecast.days_left,
            exhausted_on: forecast.exhausted_on,
            daily_rate: forecast.daily_rate,
            window_days: forecast.window_days,
            alert_days: alertDays,
          },
        }),
      ]
    : [];
  return outbox
    .withEvents(entries, async () => {
      const after = await instances.moveForecastAlert(
        tenantId,
        instance.id,
        from,
        alertDays,
        state,
        fire,
      );
      if (!after && entries.length > 0) throw new AlreadyMoved();
      return fire && after !== null;
    })
    .catch((error: unknown) => {
      if (error instanceof AlreadyMoved) return false;
      throw error;
    });
}

class AlreadyMoved extends Error {}
