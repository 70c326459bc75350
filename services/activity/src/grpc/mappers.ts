import type { Activity, Alert } from '@inventory/contracts/activity/v1/activity.js';
import type { ActivityDocument } from '../store/activity.js';
import type { AlertDocument } from '../store/alert.js';

export function toActivityMessage(row: ActivityDocument): Activity {
  return {
    id: row.id,
    event: row.event,
    description: row.description,
    subject_type: row.subject_type ?? '',
    subject_id: row.subject_id ?? 0,
    causer_id: row.causer_id ?? undefined,
    properties_json: JSON.stringify(row.properties ?? {}),
    created_at: row.created_at,
  };
}

export function toAlertMessage(row: AlertDocument): Alert {
  return {
    id: row.id,
    kind: row.kind,
    priority: row.priority,
    title: row.title,
    message: row.message,
    link: row.link ?? '',
    properties_json: JSON.stringify(row.properties ?? {}),
    read_at: row.read_at ?? undefined,
    created_at: row.created_at,
    recipient_user_id: row.recipient_user_id ?? 0,
  };
}
