import { SHIPMENT_WATCH_DEFAULTS } from '@inventory/rules';
import type {
  Dashboard,
  Instance,
  TrackableChannel,
  TransitStats,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { isoOrNull } from '../../http/timestamps.js';

function channelScope(instance: Instance) {
  const scope = instance.auto_track_channels!;
  const channels: Record<string, { enabled?: boolean; sub_channels?: Record<string, boolean> }> =
    {};
  for (const [id, entry] of Object.entries(scope.channels)) {
    channels[id] = {
      ...(entry.enabled === undefined ? {} : { enabled: entry.enabled }),
      ...(Object.keys(entry.sub_channels).length > 0 ? { sub_channels: entry.sub_channels } : {}),
    };
  }
  return { default: scope.default_scope, channels };
}

/** The fields every rendering shares, in the specification's order. */
function settings(instance: Instance) {
  return {
    id: instance.id,
    name: instance.name,
    is_automatic_sync_enabled: instance.is_automatic_sync_enabled,
    auto_track: instance.auto_track,
    auto_track_channels: channelScope(instance),
  };
}

/** 201: exactly the specification's create fields; the live ones are null. */
export function presentCreated(instance: Instance, baseUrl: string) {
  return {
    ...settings(instance),
    webhook_url: `${baseUrl}${instance.webhook_path}`,
    quota: null,
    status_counts: null,
    last_webhook_at: null,
    last_event_at: null,
    created_at: isoOrNull(instance.created_at),
    updated_at: isoOrNull(instance.updated_at),
  };
}

/**
 * GET instances: the stored instance as created (webhook_url included) with its settings; the
 * live fields are null, as on create: GET instances/{instance} reads them.
 */
export function presentListed(instance: Instance, baseUrl: string) {
  return {
    ...presentCreated(instance, baseUrl),
    side_effects: instance.side_effects,
    quota_alert_threshold: instance.quota_alert_threshold,
    shipment_watch: presentWatch(instance.shipment_watch),
    quota_forecast_alert_days: instance.quota_forecast_alert_days,
  };
}

/** PATCH 200: the updated settings without the live summary (those fields are null). */
export function presentUpdated(instance: Instance) {
  return {
    ...settings(instance),
    webhook_url: null,
    quota: null,
    status_counts: null,
    last_webhook_at: null,
    last_event_at: null,
    side_effects: instance.side_effects,
    quota_alert_threshold: instance.quota_alert_threshold,
    shipment_watch: presentWatch(instance.shipment_watch),
    created_at: isoOrNull(instance.created_at),
    updated_at: isoOrNull(instance.updated_at),
    quota_forecast_alert_days: instance.quota_forecast_alert_days,
  };
}

function stats(s: TransitStats | undefined) {
  return {
    delivered_count: s?.delivered_count ?? 0,
    average_days_in_transit: s?.average_days_in_transit ?? null,
    with_estimate_count: s?.with_estimate_count ?? 0,
    on_time_count: s?.on_time_count ?? 0,
    on_time_rate: s?.on_time_rate ?? null,
  };
}

/**
 * GET 200: the instance with its live dashboard. When the provider could not
 * be asked, `quota` is null and `quota_error` says why (see ADR 0201).
 */
export function presentDashboard(instance: Instance, dashboard: Dashboard, baseUrl: string) {
  return {
    ...settings(instance),
    webhook_url: `${baseUrl}${instance.webhook_path}`,
    quota: dashboard.quota ?? null,
    quota_error: dashboard.quota_error ?? null,
    status_counts: dashboard.status_counts,
    pending_registration_count: dashboard.pending_registration_count,
    registration_errors: dashboard.registration_errors.map((error) => ({
      message: error.message,
      count: error.count,
      last_failed_at: isoOrNull(error.last_failed_at),
    })),
    last_webhook_at: isoOrNull(dashboard.last_webhook_at),
    last_event_at: isoOrNull(dashboard.last_event_at),
    stalled_count: dashboard.stalled_count,
    late_count: dashboard.late_count,
    side_effects: instance.side_effects,
    quota_alert_threshold: instance.quota_alert_threshold,
    shipment_watch: presentWatch(instance.shipment_watch),
    transit: {
      window_days: dashboard.transit?.window_days ?? 90,
      ...stats(dashboard.transit?.overall),
      carriers: (dashboard.transit?.carriers ?? []).map((carrier) => ({
        carrier_code: carrier.carrier_code ?? null,
        carrier_name: carrier.carrier_name ?? null,
        ...stats(carrier.stats),
      })),
    },
    carriers_seen: dashboard.carriers_seen.map((carrier) => ({
      carrier_code: carrier.carrier_code,
      carrier_name: carrier.carrier_name ?? null,
    })),
    trends: {
      days: dashboard.trends?.days ?? 0,
      daily: (dashboard.trends?.daily ?? []).map((day) => ({
        date: day.date,
        registered: day.registered,
        delivered: day.delivered,
      })),
    },
    created_at: isoOrNull(instance.created_at),
    updated_at: isoOrNull(instance.updated_at),
    quota_forecast_alert_days: instance.quota_forecast_alert_days,
    quota_forecast: {
      days_left: dashboard.quota_forecast?.days_left ?? null,
      exhausted_on: dashboard.quota_forecast?.exhausted_on ?? null,
      daily_rate: dashboard.quota_forecast?.daily_rate ?? 0,
      window_days: dashboard.quota_forecast?.window_days ?? 0,
    },
    quota_units_saved: dashboard.quota_units_saved,
  };
}

export function presentChannel(channel: TrackableChannel) {
  return {
    id: channel.id,
    name: channel.name,
    platform: channel.platform,
    icon_url: channel.icon_url,
    sub_channels: channel.sub_channels,
  };
}

/** The instance's watch settings, each key always present (an older service answers without). */
function presentWatch(watch: Instance['shipment_watch']) {
  return {
    stalled_after_hours: watch?.stalled_after_hours ?? SHIPMENT_WATCH_DEFAULTS.stalled_after_hours,
    carrier_stalled_after_hours: (watch?.carrier_stalled_after_hours ?? []).map((entry) => ({
      carrier_code: entry.carrier_code,
      hours: entry.hours,
    })),
    stalled_alert: watch?.stalled_alert ?? SHIPMENT_WATCH_DEFAULTS.stalled_alert,
    late_alert: watch?.late_alert ?? SHIPMENT_WATCH_DEFAULTS.late_alert,
  };
}
