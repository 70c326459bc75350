import {
  activityEntry,
  alertEntry,
  domainEventEntry,
  webhookSubscriptionDeactivated,
} from '@inventory/events';
import type { Outbox } from '@inventory/platform';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { AttemptRecord, DeliveryDocument } from '../store/delivery.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import type { SubscriptionDocument } from '../store/subscription.js';

export type DeactivationReason = 'gone' | 'consecutive_failures';

export const WEBHOOK_SUBSCRIPTION_SUBJECT = 'webhook_subscription';

class AlreadyInactive extends Error {}

/** Failed attempts a deactivation notice shows, the one that switched it off first. */
const LAST_FAILURES = 3;

export interface FailureShown {
  delivery_id: string;
  event: string;
  attempted_at: string;
  response_status: number | null;
  error: string | null;
}

const shown = (
  delivery: Pick<DeliveryDocument, 'delivery_id' | 'event'>,
  attempt: AttemptRecord,
): FailureShown => ({
  delivery_id: delivery.delivery_id,
  event: delivery.event,
  attempted_at: new Date(attempt.attempted_at).toISOString(),
  response_status: attempt.response_status ?? null,
  error: attempt.error ?? null,
});

const describeFailure = (failure: FailureShown) =>
  `${failure.attempted_at} ${failure.event}: ${
    failure.response_status === null
      ? (failure.error ?? 'no response')
      : `HTTP ${failure.response_status}`
  }`;

/**
 * Switches a subscription off and notifies the account: an in-app alert naming the subscription,
 * the reason and its last failures, an activity row, the `outbound.webhook_subscription.deactivated`
 * bus event, and the `webhook_subscription.deactivated` webhook event other subscriptions of the
 * tenant may list (ADR 0413), all through the outbox so they go out exactly when the switch
 * happened (and once, even when several failures race to it).
 */
export class DeactivateSubscription {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: Pick<DeliveryRepository, 'recentFailures'>,
    private readonly outbox: Outbox,
  ) {}

  /** `current`: the failed attempt that switches it off (not stored yet when this runs). */
  async execute(
    subscription: SubscriptionDocument,
    reason: DeactivationReason,
    consecutiveFailures: number,
    current?: { delivery: DeliveryDocument; attempt: AttemptRecord },
  ): Promise<boolean> {
    const tenantId = subscription.tenant_id;
    const now = new Date();
    const earlier = await this.deliveries.recentFailures(tenantId, subscription.id, LAST_FAILURES);
    const lastFailures = [
      ...(current ? [shown(current.delivery, current.attempt)] : []),
      ...earlier
        .filter((failed) => failed.delivery_id !== current?.delivery.delivery_id)
        .flatMap((failed) => {
          const attempt = failed.attempts.at(-1);
          return attempt ? [shown(failed, attempt)] : [];
        }),
    ].slice(0, LAST_FAILURES);
    const named = `#${subscription.id}${subscription.description ? ` (${subscription.description})` : ''}`;
    const why =
      reason === 'gone'
        ? 'the receiver answered HTTP 410 Gone'
        : `${consecutiveFailures} consecutive deliveries failed`;
    const properties = {
      subscription_id: subscription.id,
      url: subscription.url,
      reason,
      consecutive_failures: consecutiveFailures,
      last_failures: lastFailures,
    };
    const failuresLine =
      lastFailures.length === 0
        ? ''
        : ` Last failures: ${lastFailures.map(describeFailure).join('; ')}.`;
    try {
      await this.outbox.withEvents(
        [
          alertEntry({
            tenantId,
            key: `webhook_subscription_deactivated:${subscription.id}:${now.getTime()}`,
            kind: 'webhook_subscription_deactivated',
            priority: 'high',
            title: `Webhook subscription ${named} deactivated`,
            message: `Deliveries of subscription ${named} to ${subscription.url} stopped because ${why}.${failuresLine} Re-enable the subscription once the receiver works.`,
            link: `/settings/developer/webhooks/${subscription.id}`,
            properties,
            occurredAt: now,
          }),
          activityEntry({
            tenantId,
            event: 'webhook_subscription_deactivated',
            description: `Webhook subscription to ${subscription.url} deactivated: ${why}`,
            subject: { type: WEBHOOK_SUBSCRIPTION_SUBJECT, id: subscription.id },
            properties,
            occurredAt: now,
          }),
          domainEventEntry({
            tenantId,
            name: 'webhook_subscription.deactivated',
            occurredAt: now,
            data: {
              id: subscription.id,
              url: subscription.url,
              description: subscription.description,
              reason,
              consecutive_failures: consecutiveFailures,
              deactivated_at: now.toISOString(),
              last_failures: lastFailures,
            },
          }),
          {
            type: webhookSubscriptionDeactivated,
            event: {
              tenantId,
              occurredAt: now,
              payload: {
                subscription_id: subscription.id,
                url: subscription.url,
                reason,
                consecutive_failures: consecutiveFailures,
              },
            },
          },
        ],
        async () => {
          // Only the caller that flips it notifies; the others' events are discarded.
          if (!(await this.subscriptions.deactivate(tenantId, subscription.id, reason)))
            throw new AlreadyInactive();
        },
      );
      return true;
    } catch (error) {
      if (error instanceof AlreadyInactive) return false;
      throw error;
    }
  }
}
