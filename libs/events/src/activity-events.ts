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

/** subject_type for rows whose subject is a personal access token (identity). */
export const PERSONAL_ACCESS_TOKEN_SUBJECT = 'personal_access_token';

/** Activity event names identity records about personal access tokens (issue #44). */
export const TOKEN_ACTIVITY_EVENTS = [
  'token_revoked_as_leaked',
  'token_regenerated',
  'token_revoked_by_admin',
  'token_expired_unused',
] as const;
export type TokenActivityEventName = (typeof TOKEN_ACTIVITY_EVENTS)[number];
