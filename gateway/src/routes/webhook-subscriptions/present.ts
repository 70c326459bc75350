import type {
  RecoverJob,
  Delivery,
  Subscription,
} from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import { isoOrNull } from '../../http/timestamps.js';

/** A subscription as the API shows it: never its secret. */
export function presentSubscription(subscription: Subscription) {
  return {
    id: subscription.id,
    url: subscription.url,
    events: subscription.events,
    description: subscription.description ?? null,
    is_active: subscription.is_active,
    // Its health: why the platform switched it off, and the failures in a row so far.
    deactivated_reason: subscription.deactivated_reason ?? null,
    consecutive_failures: subscription.consecutive_failures,
    // Paused by hand (ADR 0412): deliveries are held until resumed or the pause runs out.
    paused_at: isoOrNull(subscription.paused_at),
    pause_expires_at: isoOrNull(subscription.pause_expires_at),
    resuming: subscription.resuming,
    held_count: subscription.held_count,
    // Only events whose data matches are sent (ADR 0418); null: every event of its types.
    filter: subscription.filter_json ? (JSON.parse(subscription.filter_json) as object) : null,
    created_at: isoOrNull(subscription.created_at),
    updated_at: isoOrNull(subscription.updated_at),
  };
}

/** A recover job and its progress. */
export function presentRecoverJob(job: RecoverJob) {
  return {
    id: job.id,
    subscription_id: job.subscription_id,
    since: isoOrNull(job.since),
    status: job.status,
    found: job.found,
    sent: job.sent,
    succeeded: job.succeeded,
    failed: job.failed,
    pending: job.pending,
    created_at: isoOrNull(job.created_at),
    finished_at: isoOrNull(job.finished_at),
  };
}

/** One delivery log entry with its attempts (response bodies already cut by the service). */
export function presentDelivery(delivery: Delivery) {
  return {
    delivery_id: delivery.id,
    subscription_id: delivery.subscription_id,
    event: delivery.event,
    status: delivery.status,
    occurred_at: isoOrNull(delivery.occurred_at),
    created_at: isoOrNull(delivery.created_at),
    next_attempt_at: isoOrNull(delivery.next_attempt_at),
    attempts: delivery.attempts.map((attempt) => ({
      attempted_at: isoOrNull(attempt.attempted_at),
      response_status: attempt.response_status ?? null,
      duration_ms: attempt.duration_ms,
      error: attempt.error ?? null,
      response_body: attempt.response_body ?? null,
      // The request as sent, redacted (ADR 0419); null for attempts recorded before.
      request: attempt.request_url
        ? { method: 'POST', url: attempt.request_url, headers: attempt.request_headers }
        : null,
    })),
  };
}
