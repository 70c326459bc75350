import type { Activity } from '@inventory/contracts/activity/v1/activity.js';

/** One item of the activity endpoint's `data`. */
export interface ActivityItem {
  id: number;
  event: string;
  description: string;
  subject_type: string | null;
  subject_id: number | null;
  /** User ids are integers in the public API; a non-numeric causer id is passed through as text. */
  causer_id: number | string | null;
  properties: Record<string, unknown>;
  /** ISO 8601 UTC. */
  created_at: string;
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

export function presentActivity(row: Activity): ActivityItem {
  const causer = row.causer_id;
  return {
    id: row.id,
    event: row.event,
    description: row.description,
    subject_type: row.subject_type || null,
    subject_id: row.subject_id || null,
    causer_id:
      causer === undefined || causer === ''
        ? null
        : /^\d{1,15}$/.test(causer)
          ? Number(causer)
          : causer,
    properties: parseProperties(row.properties_json),
    created_at: (row.created_at ?? new Date(0)).toISOString(),
  };
}
