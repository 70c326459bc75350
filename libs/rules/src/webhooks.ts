/**
 * The inbound webhook log's rules (spec: webhook log). The gateway checks the HTTP syntax against
 * them; webhook-ingest applies them to the ListWebhookEvents call.
 */
export const WEBHOOK_RESULTS = ['processed', 'failed', 'ignored'] as const;
export type WebhookResult = (typeof WEBHOOK_RESULTS)[number];

/** What the webhook log sorts by (default: newest `received_at` first). */
export const WEBHOOK_LOG_SORTS = ['received_at', 'created_at', 'event_type', 'result'] as const;
export const WEBHOOK_LOG_DEFAULT_PER_PAGE = 10;
/** As the activity list: no hard maximum in the spec; 1000 keeps one call bounded (ADR 0223). */
export const WEBHOOK_LOG_MAX_PER_PAGE = 1000;

/**
 * An outbound webhook delivery's status (outbound-delivery's delivery log and its `status`
 * filter); not the parcel `DELIVERY_STATUSES`.
 */
export const OUTBOUND_DELIVERY_STATUSES = [
  'pending',
  'succeeded',
  'failed',
  'dropped',
  'skipped',
  // Its subscription is paused: stored, sent on resume (ADR 0412).
  'held',
] as const;
export type OutboundDeliveryStatus = (typeof OUTBOUND_DELIVERY_STATUSES)[number];

/**
 * The webhook subscriptions list and delivery log pages: default 10; no hard maximum in the
 * spec, 1000 keeps one request from reading everything.
 */
export const WEBHOOK_SUBSCRIPTIONS_DEFAULT_PER_PAGE = 10;
export const WEBHOOK_SUBSCRIPTIONS_MAX_PER_PAGE = 1000;
