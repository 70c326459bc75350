import { DELIVERY_STATUSES } from '@inventory/rules';
import type { JsonSchema } from '../../http/input-field.js';
import { dataOf, row } from '../../http/row-schema.js';
import { CREATE_BODY, UPDATE_BODY } from './inputs.js';

/**
 * What the instance routes answer (present.ts builds these). The switches and the channel scope
 * are the same shapes the bodies take, so they are documented from the bodies' fields; a body may
 * leave a key out, an answer always has each one.
 */
const answered = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  required: Object.keys(schema.properties as object),
});
const settings = {
  id: 'integer',
  name: 'string',
  is_automatic_sync_enabled: 'boolean',
  auto_track: answered(CREATE_BODY.fields.auto_track.schema),
  auto_track_channels: answered(CREATE_BODY.fields.auto_track_channels.schema),
} as const;
const nothing = { type: 'null' };
const sideEffects = answered(UPDATE_BODY.fields.side_effects.schema);
const shipmentWatch = {
  ...answered(UPDATE_BODY.fields.shipment_watch.schema),
  description:
    "Stalled and late shipments: the thresholds and the alert switches (ADR 0218). After the specification's fields.",
};

const forecastAlertDays = {
  type: 'integer',
  description:
    'Forecast days of quota left under which an alert fires; 0 turns it off (ADR 0235). Default 0.',
};

const quota = row({ used: 'integer', total: 'integer', remaining: 'integer' });

const stats = {
  delivered_count: 'integer',
  average_days_in_transit: { type: ['number', 'null'] },
  with_estimate_count: 'integer',
  on_time_count: 'integer',
  on_time_rate: { type: ['number', 'null'] },
} as const;

export const CREATED_ROW = row({
  ...settings,
  webhook_url: 'string',
  quota: nothing,
  status_counts: nothing,
  last_webhook_at: nothing,
  last_event_at: nothing,
  created_at: 'date-time?',
  updated_at: 'date-time?',
});

export const LISTED_ROW = row({
  ...settings,
  webhook_url: 'string',
  quota: nothing,
  status_counts: nothing,
  last_webhook_at: nothing,
  last_event_at: nothing,
  created_at: 'date-time?',
  updated_at: 'date-time?',
  side_effects: sideEffects,
  quota_alert_threshold: 'integer',
  shipment_watch: shipmentWatch,
  quota_forecast_alert_days: forecastAlertDays,
});

export const UPDATED_ROW = row({
  ...settings,
  webhook_url: nothing,
  quota: nothing,
  status_counts: nothing,
  last_webhook_at: nothing,
  last_event_at: nothing,
  side_effects: sideEffects,
  quota_alert_threshold: 'integer',
  shipment_watch: shipmentWatch,
  created_at: 'date-time?',
  updated_at: 'date-time?',
  quota_forecast_alert_days: forecastAlertDays,
});

export const DASHBOARD_ROW = row({
  ...settings,
  webhook_url: 'string',
  quota: { ...quota, type: ['object', 'null'] },
  quota_error: {
    ...row({ code: 'string', message: 'string' }),
    type: ['object', 'null'],
    description: 'Why the provider could not be asked (quota is then null)',
  },
  status_counts: row(
    Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, 'integer' as const])),
  ),
  pending_registration_count: 'integer',
  registration_errors: {
    type: 'array',
    items: row({ message: 'string', count: 'integer', last_failed_at: 'date-time?' }),
  },
  last_webhook_at: 'date-time?',
  last_event_at: 'date-time?',
  stalled_count: {
    type: 'integer',
    description:
      'Active rows in transit with no new checkpoint for longer than the stalled threshold (ADR 0218).',
  },
  late_count: {
    type: 'integer',
    description: 'Active rows past their estimated delivery and not delivered (ADR 0218).',
  },
  side_effects: sideEffects,
  quota_alert_threshold: 'integer',
  shipment_watch: shipmentWatch,
  transit: row({
    window_days: 'integer',
    ...stats,
    carriers: {
      type: 'array',
      items: row({ carrier_code: 'integer?', carrier_name: 'string?', ...stats }),
    },
  }),
  carriers_seen: {
    type: 'array',
    description:
      "Every carrier the instance's shipments have been assigned, by code (the values of filter[carrier_code]), with its name when known.",
    items: row({ carrier_code: 'integer', carrier_name: 'string?' }),
  },
  trends: row({
    days: 'integer',
    daily: {
      type: 'array',
      description:
        'Shipments registered with the provider and delivered per UTC day, oldest first, today last; a day without any counts 0 (ADR 0219).',
      items: row({ date: 'string', registered: 'integer', delivered: 'integer' }),
    },
  }),
  created_at: 'date-time?',
  updated_at: 'date-time?',
  quota_forecast_alert_days: forecastAlertDays,
  quota_forecast: {
    ...row({
      days_left: 'integer?',
      exhausted_on: 'string?',
      daily_rate: { type: 'number' },
      window_days: 'integer',
    }),
    description:
      'When the quota runs out at the quota units spent per day over the last window_days UTC days (today so far included); days_left and exhausted_on (YYYY-MM-DD, UTC) are null when nothing was spent in the window or the quota could not be read (ADR 0235).',
  },
  quota_units_saved: {
    type: 'integer',
    description:
      "Registrations that re-used the provider's existing registration of a number instead of spending a quota unit (ADR 0236).",
  },
});

export const CHANNEL_ROW = row({
  id: 'integer',
  name: 'string',
  platform: 'string',
  icon_url: 'string',
  sub_channels: {
    type: 'array',
    items: row({ id: 'integer', name: 'string', external_identifier: 'string' }),
  },
});

export const instanceSchemas = {
  testApiKey: { response: { 200: row({ data: row({ quota }), message: 'string' }) } },
  create: { response: { 201: dataOf(CREATED_ROW) } },
  list: {
    summary:
      "The tenant's instance, if connected: a list of 0 or 1 (the singleton, found without its id)",
    response: { 200: dataOf({ type: 'array', items: LISTED_ROW, maxItems: 1 }) },
  },
  show: { response: { 200: dataOf(DASHBOARD_ROW) } },
  update: { response: { 200: dataOf(UPDATED_ROW) } },
  remove: {},
  trackableChannels: { response: { 200: dataOf({ type: 'array', items: CHANNEL_ROW }) } },
};
