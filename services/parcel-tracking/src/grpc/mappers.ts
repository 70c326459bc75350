import type {
  Dashboard,
  Instance,
  TrackableChannel,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { shipmentWatchOf } from '../domain/shipment-watch.js';
import { DEFAULT_FORECAST_ALERT_DAYS } from '../domain/quota-forecast.js';
import { webhookPath } from '../domain/webhook-token.js';
import type { InstanceDocument } from '../store/instance.js';
import type { SalesChannelDocument } from '../store/sales-channel.js';
import type { InstanceDashboard } from '../use-cases/get-instance.js';

/** The stored instance as the API sees it: never the key, the webhook as a path. */
export function toInstance(doc: InstanceDocument): Instance {
  return {
    id: doc.id,
    name: doc.name,
    is_automatic_sync_enabled: doc.is_automatic_sync_enabled,
    auto_track: doc.auto_track,
    auto_track_channels: {
      default_scope: doc.auto_track_channels.default,
      channels: Object.fromEntries(
        Object.entries(doc.auto_track_channels.channels).map(([id, entry]) => [
          id,
          { enabled: entry.enabled, sub_channels: entry.sub_channels ?? {} },
        ]),
      ),
    },
    webhook_path: webhookPath(doc.webhook_token),
    side_effects: doc.side_effects,
    quota_alert_threshold: doc.quota_alert_threshold,
    shipment_watch: shipmentWatchOf(doc.shipment_watch),
    quota_forecast_alert_days: doc.quota_forecast_alert_days ?? DEFAULT_FORECAST_ALERT_DAYS,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

export function toDashboard(dashboard: InstanceDashboard): Dashboard {
  const stats = (s: InstanceDashboard['transit']['overall']) => ({
    delivered_count: s.delivered_count,
    average_days_in_transit: s.average_days_in_transit ?? undefined,
    with_estimate_count: s.with_estimate_count,
    on_time_count: s.on_time_count,
    on_time_rate: s.on_time_rate ?? undefined,
  });
  return {
    quota: dashboard.quota ?? undefined,
    quota_error: dashboard.quota_error ?? undefined,
    status_counts: dashboard.status_counts,
    pending_registration_count: dashboard.pending_registration_count,
    registration_errors: dashboard.registration_errors,
    last_webhook_at: dashboard.last_webhook_at ?? undefined,
    last_event_at: dashboard.last_event_at ?? undefined,
    stalled_count: dashboard.stalled_count,
    late_count: dashboard.late_count,
    carriers_seen: dashboard.carriers_seen.map((carrier) => ({
      carrier_code: carrier.carrier_code,
      carrier_name: carrier.carrier_name ?? undefined,
    })),
    trends: dashboard.trends,
    quota_forecast: {
      days_left: dashboard.quota_forecast.days_left ?? undefined,
      exhausted_on: dashboard.quota_forecast.exhausted_on ?? undefined,
      daily_rate: dashboard.quota_forecast.daily_rate,
      window_days: dashboard.quota_forecast.window_days,
    },
    quota_units_saved: dashboard.quota_units_saved,
    transit: {
      window_days: dashboard.transit.window_days,
      overall: stats(dashboard.transit.overall),
      carriers: dashboard.transit.carriers.map((carrier) => ({
        carrier_code: carrier.carrier_code ?? undefined,
        carrier_name: carrier.carrier_name ?? undefined,
        stats: stats(carrier.stats),
      })),
    },
  };
}

export function toTrackableChannel(doc: SalesChannelDocument): TrackableChannel {
  return {
    id: doc.sales_channel_id,
    name: doc.name,
    platform: doc.platform,
    icon_url: doc.icon_url,
    sub_channels: doc.sub_channels,
  };
}
