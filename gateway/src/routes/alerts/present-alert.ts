import type { Alert } from '@inventory/contracts/activity/v1/activity.js';

/** One item of `GET /api/alerts`. */
export interface AlertItem {
  id: number;
  kind: string;
  priority: string;
  title: string;
  message: string;
  /** Relative web-app path, or null. */
  link: string | null;
  properties: Record<string, unknown>;
  /** ISO 8601 UTC, null while unread. */
  read_at: string | null;
  created_at: string;
  /** The one user it is for; null for the tenant's inbox (ADR 0303). */
  recipient_user_id: number | null;
}

function parseProperties(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function presentAlert(alert: Alert): AlertItem {
  return {
    id: alert.id,
    kind: alert.kind,
    priority: alert.priority,
    title: alert.title,
    message: alert.message,
    link: alert.link || null,
    properties: parseProperties(alert.properties_json),
    read_at: alert.read_at ? alert.read_at.toISOString() : null,
    created_at: (alert.created_at ?? new Date(0)).toISOString(),
    recipient_user_id: alert.recipient_user_id || null,
  };
}
