import { AlertRaised } from '@inventory/contracts/events/v1/alert.js';
import { defineEvent, type NewEvent } from '@inventory/platform';

/**
 * `activity.alert.raised`: one in-app alert, for one user or the tenant's inbox, on the ACTIVITY stream. Producers publish it
 * through their outbox; the activity service stores one alert per (tenant, key).
 */
export const alertRaised = defineEvent('activity.alert.raised', AlertRaised);

/** Every kind of in-app alert; the web app's bell and `GET /api/alerts` show them. */
export const ALERT_KINDS = [
  'quota_warning',
  'quota_exhausted',
  'quota_forecast',
  'inbound_shipment_delivered',
  'rma_delivered',
  'shipment_stalled',
  'shipment_late',
  'webhook_subscription_deactivated',
  'token_leak_reported',
  'token_expiring',
  'token_expired',
  'token_revoked_by_admin',
  'token_idle_expiring',
  'token_expired_unused',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const ALERT_PRIORITIES = ['normal', 'high'] as const;
export type AlertPriority = (typeof ALERT_PRIORITIES)[number];

export type { AlertRaised };

export interface AlertInput {
  tenantId: string;
  /** Dedupe key within the tenant: the same key is one alert however often it is raised. */
  key: string;
  kind: AlertKind;
  priority?: AlertPriority;
  title: string;
  message: string;
  /** Relative web-app path the alert points at. */
  link?: string;
  properties?: Record<string, unknown>;
  occurredAt?: Date;
  /** The one user it is for (a token's owner); without it, the tenant's alert inbox (ADR 0303). */
  recipientUserId?: number;
}

/**
 * Builds the outbox entry for one alert: `outbox.withEvents([alertEntry({...})], change)`.
 * The event id is derived from the key, so a producer that raises the same alert twice
 * (a retry, a replica) publishes one event that JetStream's dedupe window also absorbs.
 */
export function alertEntry(input: AlertInput): {
  type: typeof alertRaised;
  event: NewEvent<AlertRaised>;
} {
  return {
    type: alertRaised,
    event: {
      tenantId: input.tenantId,
      id: `alert:${input.tenantId}:${input.key}`,
      occurredAt: input.occurredAt,
      payload: {
        key: input.key,
        kind: input.kind,
        priority: input.priority ?? 'normal',
        title: input.title,
        message: input.message,
        link: input.link ?? '',
        properties_json: JSON.stringify(input.properties ?? {}),
        recipient_user_id: input.recipientUserId ?? 0,
      },
    },
  };
}
