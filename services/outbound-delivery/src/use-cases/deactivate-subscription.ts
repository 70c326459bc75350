import { activityEntry, alertEntry, webhookSubscriptionDeactivated } from '@inventory/events';
import type { Outbox } from '@inventory/platform';
import type { SubscriptionDocument, SubscriptionStore } from '../store/subscription-store.js';

export type DeactivationReason = 'gone' | 'consecutive_failures';

export const WEBHOOK_SUBSCRIPTION_SUBJECT = 'webhook_subscription';

class AlreadyInactive extends Error {}

/**
 * Switches a subscription off and notifies the account: an in-app alert, an activity row and
 * a `outbound.webhook_subscription.deactivated` event, through the outbox so they go out
 * exactly when the switch happened (and once, even when several failures race to it).
 */
export class DeactivateSubscription {
  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly outbox: Outbox,
  ) {}

  async execute(
    subscription: SubscriptionDocument,
    reason: DeactivationReason,
    consecutiveFailures: number,
  ): Promise<boolean> {
    const tenantId = subscription.tenant_id;
    const now = new Date();
    const why =
      reason === 'gone'
        ? 'the receiver answered HTTP 410 Gone'
        : `${consecutiveFailures} consecutive deliveries failed`;
    const properties = {
      subscription_id: subscription.id,
      url: subscription.url,
      reason,
      consecutive_failures: consecutiveFailures,
    };
    try {
      await this.outbox.withEvents(
        [
          alertEntry({
            tenantId,
            key: `webhook_subscription_deactivated:${subscription.id}:${now.getTime()}`,
            kind: 'webhook_subscription_deactivated',
            priority: 'high',
            title: 'Webhook subscription deactivated',
            message: `Deliveries to ${subscription.url} stopped because ${why}. Re-enable the subscription once the receiver works.`,
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
