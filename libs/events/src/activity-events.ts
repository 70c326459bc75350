// No imports: the web app bundles this file for the browser (`@inventory/events/browser`).

/** Activity event names the parcel-tracking integration records (spec: instance activity endpoint). */
export const ACTIVITY_EVENTS = [
  'connected',
  'updated',
  'disconnected',
  'webhook_processed',
  'webhook_failed',
  'backfill_started',
  'backfill_completed',
  'quota_exceeded',
] as const;
export type ActivityEventName = (typeof ACTIVITY_EVENTS)[number];

/** subject_type for rows whose subject is an integration instance. */
export const INTEGRATION_INSTANCE_SUBJECT = 'integration_instance';
