import {
  OutboundDeliveryServiceService,
  type OutboundDeliveryServiceServer,
} from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import type { AsyncService, ServiceRegistration } from '@inventory/platform';
import { WEBHOOK_SUBSCRIPTIONS_DEFAULT_PER_PAGE } from '@inventory/rules';
import type { CreateSubscription } from '../use-cases/create-subscription.js';
import type { DeleteSubscription } from '../use-cases/delete-subscription.js';
import type { GetSubscription } from '../use-cases/get-subscription.js';
import type { GetSubscriptionHealth } from '../use-cases/get-subscription-health.js';
import type { ListDeliveries } from '../use-cases/list-deliveries.js';
import type { ListSubscriptions } from '../use-cases/list-subscriptions.js';
import type { GetDelivery } from '../use-cases/get-delivery.js';
import type { Redeliver } from '../use-cases/redeliver.js';
import type { RotateSecret } from '../use-cases/rotate-secret.js';
import type { SendTestPing } from '../use-cases/send-test-ping.js';
import type { UpdateSubscription } from '../use-cases/update-subscription.js';
import type { PauseSubscription } from '../use-cases/pause-subscription.js';
import type { ResumeSubscription } from '../use-cases/resume-subscription.js';
import type { RecoverDeliveries } from '../use-cases/recover-deliveries.js';
import { ownerOf, toDelivery, toHealthWindow, toRecoverJob } from './mappers.js';
import type { SubscriptionView } from './subscription-view.js';

export interface OutboundDeliveryUseCases {
  createSubscription: CreateSubscription;
  listSubscriptions: ListSubscriptions;
  getSubscription: GetSubscription;
  updateSubscription: UpdateSubscription;
  deleteSubscription: DeleteSubscription;
  rotateSecret: RotateSecret;
  listDeliveries: ListDeliveries;
  getDelivery: GetDelivery;
  redeliver: Redeliver;
  sendTestPing: SendTestPing;
  pauseSubscription: PauseSubscription;
  resumeSubscription: ResumeSubscription;
  recoverDeliveries: RecoverDeliveries;
  getSubscriptionHealth: GetSubscriptionHealth;
}

/** Thin handlers: tenant from metadata, one use case each. */
export function outboundDeliveryService(
  useCases: OutboundDeliveryUseCases,
  view: SubscriptionView,
): ServiceRegistration<OutboundDeliveryServiceServer> {
  const implementation: AsyncService<OutboundDeliveryServiceServer> = {
    async createSubscription(request, context) {
      const { subscription, secret } = await useCases.createSubscription.execute({
        tenantId: context.tenant(),
        url: request.url,
        events: request.events,
        description: request.description,
        inputViolations: request.input_violations,
        owner: ownerOf(request.owner),
        isActive: request.is_active,
        filterJson: request.filter_json,
      });
      return { subscription: await view.one(context.tenant(), subscription), secret };
    },
    async listSubscriptions(request, context) {
      const tenantId = context.tenant();
      const { rows, total } = await useCases.listSubscriptions.execute(
        tenantId,
        request.page || 1,
        request.per_page || WEBHOOK_SUBSCRIPTIONS_DEFAULT_PER_PAGE,
      );
      return { subscriptions: await view.many(tenantId, rows), total };
    },
    async getSubscription(request, context) {
      const subscription = await useCases.getSubscription.execute(context.tenant(), request.id);
      return { subscription: await view.one(context.tenant(), subscription) };
    },
    async updateSubscription(request, context) {
      const subscription = await useCases.updateSubscription.execute({
        tenantId: context.tenant(),
        id: request.id,
        url: request.url,
        events: request.has_events ? request.events : undefined,
        description: request.clear_description ? null : request.description,
        isActive: request.is_active,
        inputViolations: request.input_violations,
        owner: ownerOf(request.owner),
        filterJson: request.filter_json,
      });
      return { subscription: await view.one(context.tenant(), subscription) };
    },
    async deleteSubscription(request, context) {
      await useCases.deleteSubscription.execute(context.tenant(), request.id);
      return {};
    },
    async rotateSecret(request, context) {
      const { secret, previousExpiresAt } = await useCases.rotateSecret.execute(
        context.tenant(),
        request.id,
      );
      return { secret, previous_secret_expires_at: previousExpiresAt };
    },
    async listDeliveries(request, context) {
      const { rows, total } = await useCases.listDeliveries.execute(
        context.tenant(),
        request.subscription_id,
        { status: request.status, event: request.event },
        request.page || 1,
        request.per_page || WEBHOOK_SUBSCRIPTIONS_DEFAULT_PER_PAGE,
      );
      return { deliveries: rows.map((row) => toDelivery(row)), total };
    },
    async getDelivery(request, context) {
      const delivery = await useCases.getDelivery.execute(
        context.tenant(),
        request.subscription_id,
        request.delivery_id,
      );
      return { delivery: toDelivery(delivery, true) };
    },
    async redeliver(request, context) {
      const delivery = await useCases.redeliver.execute(
        context.tenant(),
        request.subscription_id,
        request.delivery_id,
      );
      return { delivery: toDelivery(delivery) };
    },
    async sendTestPing(request, context) {
      const delivery = await useCases.sendTestPing.execute(
        context.tenant(),
        request.subscription_id,
      );
      return { delivery: toDelivery(delivery) };
    },
    async pauseSubscription(request, context) {
      const subscription = await useCases.pauseSubscription.execute(context.tenant(), request.id);
      return { subscription: await view.one(context.tenant(), subscription) };
    },
    async recoverDeliveries(request, context) {
      const view = await useCases.recoverDeliveries.start(
        context.tenant(),
        request.subscription_id,
        request.since,
      );
      return { job: toRecoverJob(view) };
    },
    async getRecoverJob(request, context) {
      const view = await useCases.recoverDeliveries.get(
        context.tenant(),
        request.subscription_id,
        request.job_id,
      );
      return { job: toRecoverJob(view) };
    },
    async getSubscriptionHealth(request, context) {
      const health = await useCases.getSubscriptionHealth.execute(context.tenant(), request.id);
      return {
        last_24h: toHealthWindow(health.last_24h),
        last_7d: toHealthWindow(health.last_7d),
      };
    },
    async resumeSubscription(request, context) {
      const subscription = await useCases.resumeSubscription.execute(context.tenant(), request.id);
      return { subscription: await view.one(context.tenant(), subscription) };
    },
  };
  return {
    name: 'inventory.outbound_delivery.v1.OutboundDeliveryService',
    definition: OutboundDeliveryServiceService,
    implementation,
  };
}
