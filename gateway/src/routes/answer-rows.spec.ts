import { Ajv } from 'ajv';
import { AutoTrack, SideEffects } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { describe, expect, it } from 'vitest';
import { presentActivity } from './activity/present-activity.js';
import { ACTIVITY_ROW } from './activity/schemas.js';
import { presentAlert } from './alerts/present-alert.js';
import { ALERT_ROW } from './alerts/schemas.js';
import { presentProduct, presentPurchaseInvoice } from './catalog/present.js';
import { PRODUCT_ROW, PURCHASE_INVOICE_ROW } from './catalog/schemas.js';
import { presentRequest, presentToken, presentUser } from './identity/present.js';
import { USER_ROW } from './identity/user-schema.js';
import { TOKEN_REQUEST_ROW, TOKEN_ROW } from './identity/token-schemas.js';
import {
  CHANNEL_ROW,
  CREATED_ROW,
  DASHBOARD_ROW,
  UPDATED_ROW,
} from './parcel-tracking/instance-schemas.js';
import {
  presentChannel,
  presentCreated,
  presentDashboard,
  presentUpdated,
} from './parcel-tracking/present.js';
import { CHECKPOINT_ROW, TRACKING_ROW } from './parcel-tracking/tracking-schema.js';
import { presentCheckpoint } from './parcel-tracking/tracking-detail.js';
import { presentTracking } from './parcel-tracking/present-tracking.js';
import {
  presentDelivery,
  presentRecoverJob,
  presentSubscription,
} from './webhook-subscriptions/present.js';
import {
  DELIVERY_ROW,
  RECOVER_JOB_ROW,
  SUBSCRIPTION_ROW,
} from './webhook-subscriptions/schemas.js';
import { WEBHOOK_EVENT_ROW } from './webhooks/webhook-event-schema.js';
import { presentWebhookEvent } from './webhooks/webhook-log-page.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- proto messages built loosely for presenters */
const at = new Date('2026-01-02T03:04:05.000Z');
const ajv = new Ajv({ strict: false });
ajv.addFormat('date-time', (text: string) => /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(text));

const instance = (full: boolean) =>
  ({
    id: 3,
    name: 'Main',
    is_automatic_sync_enabled: true,
    auto_track: AutoTrack.fromPartial({ rmas: true }),
    auto_track_channels: {
      default_scope: 'all',
      channels: full ? { '4': { enabled: true, sub_channels: { '9': false } } } : {},
    },
    webhook_path: '/webhooks/parcel-tracking/wh_x',
    side_effects: SideEffects.fromPartial({ rma_arrival_alert: true }),
    quota_alert_threshold: 80,
    quota_forecast_alert_days: full ? 14 : 0,
    created_at: full ? at : undefined,
    updated_at: at,
  }) as any;

const dashboard = (full: boolean) =>
  ({
    quota: full ? { used: 1, total: 100, remaining: 99 } : undefined,
    quota_error: full ? undefined : { code: 'api_error', message: 'down' },
    stalled_count: full ? 2 : 0,
    late_count: 0,
    status_counts: Object.fromEntries(
      ['pending', 'info_received', 'in_transit', 'available_for_pickup', 'out_for_delivery']
        .concat(['delivered', 'delivery_failure', 'exception', 'expired', 'not_found'])
        .map((status) => [status, 1]),
    ),
    pending_registration_count: 0,
    registration_errors: full ? [{ message: 'bad', count: 2, last_failed_at: at }] : [],
    last_webhook_at: full ? at : undefined,
    transit: full
      ? {
          window_days: 90,
          overall: { delivered_count: 1, average_days_in_transit: 2.5, on_time_rate: 1 },
          carriers: [{ carrier_code: 100002, stats: { delivered_count: 1 } }],
        }
      : undefined,
    carriers_seen: full
      ? [{ carrier_code: 100002, carrier_name: 'UPS' }, { carrier_code: 3011 }]
      : [],
    trends: full
      ? { days: 30, daily: [{ date: '2026-01-02', registered: 2, delivered: 1 }] }
      : undefined,
    quota_forecast: full
      ? { days_left: 49, exhausted_on: '2026-02-20', daily_rate: 2.02, window_days: 14 }
      : { daily_rate: 0, window_days: 14 },
    quota_units_saved: full ? 3 : 0,
  }) as any;

/** Each documented row against what its presenter writes, with every optional field set and unset. */
const cases: Array<[string, Record<string, unknown>, (full: boolean) => unknown]> = [
  [
    'subscription',
    SUBSCRIPTION_ROW,
    (full) =>
      presentSubscription({
        id: 1,
        url: 'https://example.com/hook',
        events: ['product.created'],
        description: full ? 'd' : undefined,
        is_active: true,
        deactivated_reason: full ? 'gone' : undefined,
        consecutive_failures: 0,
        paused_at: full ? at : undefined,
        pause_expires_at: full ? at : undefined,
        resuming: full,
        held_count: full ? 3 : 0,
        created_at: full ? at : undefined,
        updated_at: full ? at : undefined,
      } as any),
  ],
  [
    'recover job',
    RECOVER_JOB_ROW,
    (full) =>
      presentRecoverJob({
        id: 'b1f0c6a2-0000-4000-8000-000000000001',
        subscription_id: 1,
        since: at,
        status: full ? 'completed' : 'running',
        found: 5,
        sent: full ? 5 : 2,
        succeeded: 2,
        failed: 0,
        pending: 0,
        created_at: at,
        finished_at: full ? at : undefined,
      } as any),
  ],
  [
    'delivery',
    DELIVERY_ROW,
    (full) =>
      presentDelivery({
        id: 'b1f0c6a2-0000-4000-8000-000000000000',
        subscription_id: 1,
        event: 'product.created',
        status: 'delivered',
        occurred_at: full ? at : undefined,
        created_at: at,
        next_attempt_at: undefined,
        attempts: [
          {
            attempted_at: at,
            response_status: full ? 200 : undefined,
            duration_ms: 12,
            error: full ? undefined : 'timeout',
            response_body: full ? 'ok' : undefined,
          },
        ],
      } as any),
  ],
  [
    'alert',
    ALERT_ROW,
    (full) =>
      presentAlert({
        id: 1,
        kind: 'quota',
        priority: 'high',
        title: 't',
        message: 'm',
        link: full ? '/app/x' : '',
        properties_json: full ? '{"a":1}' : '',
        read_at: full ? at : undefined,
        created_at: at,
      } as any),
  ],
  [
    'activity',
    ACTIVITY_ROW,
    (full) =>
      presentActivity({
        id: 1,
        event: 'updated',
        description: 'd',
        subject_type: full ? 'instance' : '',
        subject_id: full ? 5 : 0,
        causer_id: full ? '7' : '',
        properties_json: '{}',
        created_at: at,
      } as any),
  ],
  [
    'tracking',
    TRACKING_ROW,
    (full) =>
      presentTracking({
        id: 1,
        trackable_type: 'rma',
        trackable_id: 2,
        trackable_label: 'RMA-2',
        trackable_url: 'https://x/rma/2',
        tracking_number: '1Z',
        carrier_code: full ? 100002 : undefined,
        carrier_name: full ? 'UPS' : undefined,
        delivery_status: 'delivered',
        delivery_status_label: 'Delivered',
        delivery_status_color: 'green',
        last_event_at: full ? at : undefined,
        created_at: at,
      } as any),
  ],
  [
    'checkpoint',
    CHECKPOINT_ROW,
    (full) =>
      presentCheckpoint({
        occurred_at: at,
        description: full ? 'Picked up' : '',
        location: full ? 'Los Angeles' : '',
        status: full ? 'in_transit' : '',
        sub_status: full ? 'InTransit_PickedUp' : '',
        stage: '',
      }),
  ],
  [
    'webhook event',
    WEBHOOK_EVENT_ROW,
    (full) =>
      presentWebhookEvent({
        id: 1,
        integration_instance_id: 5,
        received_at: at,
        event_type: 'TRACKING_UPDATED',
        tracking_number: '1Z',
        payload_json: full ? '{"event":"x"}' : '',
        result: 'processed',
        processing_duration_ms: 3,
        created_at: at,
        updated_at: at,
        attempts: 1,
        reprocess_count: 0,
        reprocessing: false,
      } as any),
  ],
  [
    'token request',
    TOKEN_REQUEST_ROW,
    (full) =>
      presentRequest({
        id: 'r1',
        method: 'GET',
        route: '/api/user',
        path: '/api/user',
        status: 200,
        duration_ms: 4,
        ip: '127.0.0.1',
        user_agent: 'test',
        at: full ? at : undefined,
      } as any),
  ],
  [
    'user',
    USER_ROW,
    (full) =>
      presentUser({
        id: 1,
        email: 'a@b.test',
        name: 'A',
        is_owner: full,
        permissions: full ? ['products:read'] : [],
        two_factor_enabled: false,
        created_at: full ? at : undefined,
      } as any),
  ],
  ['created instance', CREATED_ROW, (full) => presentCreated(instance(full), 'https://a.test')],
  [
    'personal access token',
    TOKEN_ROW,
    (full) =>
      presentToken({
        id: 7,
        name: 'CI',
        scopes: ['products:read'],
        ip_allowlist: full ? ['10.0.0.0/8'] : [],
        rate_limit_per_minute: full ? 120 : undefined,
        expires_at: full ? at : undefined,
        last_used_at: full ? at : undefined,
        created_at: at,
        updated_at: at,
        policy_violations: full ? ['no_expiry', 'ip_allowlist'] : [],
      } as any),
  ],
  [
    'product',
    PRODUCT_ROW,
    (full) =>
      presentProduct({
        id: 1,
        sku: 'SKU-1',
        name: 'Mug',
        type: 'standard',
        barcode: full ? '4006381333931' : undefined,
        price: '19.99',
        created_at: at,
        updated_at: at,
      } as any),
  ],
  [
    'purchase invoice',
    PURCHASE_INVOICE_ROW,
    (full) =>
      presentPurchaseInvoice({
        id: 2,
        supplier_invoice_number: 'INV-9',
        status: 'open',
        currency: 'EUR',
        total: '1250.50',
        due_date: full ? '2026-02-01' : undefined,
        created_at: at,
      } as any),
  ],
  ['updated instance', UPDATED_ROW, (full) => presentUpdated(instance(full))],
  [
    'instance dashboard',
    DASHBOARD_ROW,
    (full) => presentDashboard(instance(full), dashboard(full), 'https://a.test'),
  ],
  [
    'trackable channel',
    CHANNEL_ROW,
    (full) =>
      presentChannel({
        id: 4,
        name: 'Shop',
        platform: 'shopify',
        icon_url: '',
        sub_channels: full ? [{ id: 9, name: 'EU', external_identifier: 'eu' }] : [],
      } as any),
  ],
];

describe('documented answer rows are what the presenters write', () => {
  it.each(cases)('%s', (_name, schema, present) => {
    for (const full of [true, false]) {
      const row = present(full);
      expect(ajv.validate(schema, row) ? [] : ajv.errors, JSON.stringify(row)).toEqual([]);
      // Nothing presented goes undocumented.
      expect(Object.keys(row as object)).toEqual(Object.keys(schema.properties as object));
    }
  });
});
