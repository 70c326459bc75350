import type {
  RecoverJob,
  Delivery,
  HealthWindow,
  Subscription,
  SubscriptionOwner as SubscriptionOwnerMessage,
} from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import type { SubscriptionOwner } from '../domain/subscription-owner.js';
import type { DeliveryDocument } from '../store/delivery.js';
import type { HealthWindowRow } from '../store/delivery-queries.js';
import type { SubscriptionDocument } from '../store/subscription.js';
import type { RecoverJobView } from '../use-cases/recover-deliveries.js';

/** The stored subscription as the API sees it: never a secret. */
export function toSubscription(
  doc: SubscriptionDocument,
  pause: { heldCount: number; pauseMaxMs: number } = { heldCount: 0, pauseMaxMs: 0 },
): Subscription {
  const pausedAt = doc.paused_at ? new Date(doc.paused_at) : undefined;
  return {
    paused_at: pausedAt,
    pause_expires_at: pausedAt && new Date(pausedAt.getTime() + pause.pauseMaxMs),
    resuming: doc.resuming === true,
    held_count: pause.heldCount,
    id: doc.id,
    url: doc.url,
    events: doc.events,
    description: doc.description ?? undefined,
    is_active: doc.is_active,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    deactivated_reason: doc.deactivated_reason ?? undefined,
    consecutive_failures: doc.consecutive_failures,
    filter_json: doc.filter_json ?? undefined,
  };
}

/** A delivery as the log shows it; `withPayload` adds the body it sends (one delivery's view). */
export function toDelivery(doc: DeliveryDocument, withPayload = false): Delivery {
  return {
    payload: withPayload ? doc.body : undefined,
    id: doc.delivery_id,
    subscription_id: doc.subscription_id,
    event: doc.event,
    status: doc.status,
    occurred_at: doc.occurred_at,
    created_at: doc.created_at,
    next_attempt_at: doc.status === 'pending' ? doc.next_attempt_at : undefined,
    attempts: (doc.attempts ?? []).map((attempt) => ({
      attempted_at: new Date(attempt.attempted_at),
      response_status: attempt.response_status ?? undefined,
      duration_ms: attempt.duration_ms,
      error: attempt.error ?? undefined,
      response_body: attempt.response_body ?? undefined,
      request_url: attempt.request_url,
      request_headers: attempt.request_headers ?? {},
    })),
  };
}

/** A recover job with its progress (ADR 0415). */
export function toRecoverJob(view: RecoverJobView): RecoverJob {
  const { job } = view;
  return {
    id: job.id,
    subscription_id: job.subscription_id,
    since: job.since,
    status: job.status,
    found: job.delivery_ids.length,
    sent: job.sent,
    succeeded: view.succeeded,
    failed: view.failed,
    pending: view.pending,
    created_at: job.created_at,
    finished_at: job.finished_at ?? undefined,
  };
}

/** The caller the gateway names; absent from a caller that names none (older gateways). */
export function ownerOf(
  owner: SubscriptionOwnerMessage | undefined,
): Omit<SubscriptionOwner, 'as_of'> | undefined {
  if (!owner || !owner.user_id) return undefined;
  return {
    user_id: owner.user_id,
    is_owner: owner.is_owner,
    permissions: [...owner.permissions],
  };
}

/** A health window for the wire: nulls become absent optional fields. */
export function toHealthWindow(row: HealthWindowRow): HealthWindow {
  const failure = row.last_failure;
  return {
    attempts: row.attempts,
    succeeded: row.succeeded,
    success_rate: row.success_rate ?? undefined,
    p95_latency_ms: row.p95_latency_ms ?? undefined,
    last_failure: failure
      ? {
          attempted_at: failure.attempted_at,
          response_status: failure.response_status ?? undefined,
          error: failure.error ?? undefined,
          delivery_id: failure.delivery_id,
        }
      : undefined,
  };
}
