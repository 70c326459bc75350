import {
  ParcelTrackingServiceService,
  type ParcelTrackingServiceServer,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import {
  batchItemError,
  type AsyncService,
  type Logger,
  type ServiceRegistration,
} from '@inventory/platform';
import type { ApplyTrackingUpdate } from '../use-cases/apply-tracking-update.js';
import type { ApplyTrackingUpdates } from '../use-cases/apply-tracking-updates.js';
import type { VerifyWebhookSignatures } from '../use-cases/verify-webhook-signatures.js';
import type { ListTrackings } from '../use-cases/list-trackings.js';
import type { GetTracking } from '../use-cases/get-tracking.js';
import type { CheckInstance } from '../use-cases/check-instance.js';
import type { CreateInstance } from '../use-cases/create-instance.js';
import type { DeleteInstance } from '../use-cases/delete-instance.js';
import type { GetInstance } from '../use-cases/get-instance.js';
import type { ListInstances } from '../use-cases/list-instances.js';
import type { ListTrackableChannels } from '../use-cases/list-trackable-channels.js';
import type { TestApiKey } from '../use-cases/test-api-key.js';
import type { UpdateInstance } from '../use-cases/update-instance.js';
import type { VerifyWebhookSignature } from '../use-cases/verify-webhook-signature.js';
import { toDashboard, toInstance, toTrackableChannel } from './mappers.js';
import {
  toCheckpoint,
  fromListRequest,
  fromProviderUpdate,
  toOutcome,
  toTrackingRow,
} from './tracking-mappers.js';

export interface ParcelTrackingUseCases {
  testApiKey: TestApiKey;
  createInstance: CreateInstance;
  getInstance: GetInstance;
  listInstances: ListInstances;
  updateInstance: UpdateInstance;
  deleteInstance: DeleteInstance;
  listTrackableChannels: ListTrackableChannels;
  checkInstance: CheckInstance;
  verifyWebhookSignature: VerifyWebhookSignature;
  applyTrackingUpdate: ApplyTrackingUpdate;
  verifyWebhookSignatures: VerifyWebhookSignatures;
  applyTrackingUpdates: ApplyTrackingUpdates;
  listTrackings: ListTrackings;
  getTracking: GetTracking;
}

/** Thin handlers: tenant and causer from metadata, one use case each. */
export function parcelTrackingService(
  useCases: ParcelTrackingUseCases,
  logger: Logger,
): ServiceRegistration<ParcelTrackingServiceServer> {
  const refusal = (error: unknown, method: string) =>
    batchItemError(error, logger, { grpc_method: method });
  const implementation: AsyncService<ParcelTrackingServiceServer> = {
    async testApiKey(request, context) {
      context.tenant();
      return {
        quota: await useCases.testApiKey.execute(request.api_key, request.input_violations),
      };
    },
    async createInstance(request, context) {
      const instance = await useCases.createInstance.execute({
        tenantId: context.tenant(),
        userId: context.userId,
        name: request.name,
        apiKey: request.api_key,
        autoTrack: request.auto_track,
        autoTrackChannels: request.auto_track_channels,
        inputViolations: request.input_violations,
      });
      return { instance: toInstance(instance) };
    },
    async getInstance(request, context) {
      const { instance, dashboard } = await useCases.getInstance.execute(
        context.tenant(),
        request.id,
      );
      return { instance: toInstance(instance), dashboard: toDashboard(dashboard) };
    },
    async listInstances(_request, context) {
      const instances = await useCases.listInstances.execute(context.tenant());
      return { instances: instances.map(toInstance) };
    },
    async updateInstance(request, context) {
      const instance = await useCases.updateInstance.execute({
        tenantId: context.tenant(),
        userId: context.userId,
        request,
      });
      return { instance: toInstance(instance) };
    },
    async deleteInstance(request, context) {
      await useCases.deleteInstance.execute(context.tenant(), request.id, context.userId);
      return {};
    },
    async listTrackableChannels(request, context) {
      const channels = await useCases.listTrackableChannels.execute(context.tenant(), request.id);
      return { channels: channels.map(toTrackableChannel) };
    },
    async checkInstance(request, context) {
      const { id, historyIds } = await useCases.checkInstance.execute(context.tenant(), request.id);
      return { id, history_instance_ids: historyIds };
    },
    async verifyWebhookSignature(request, context) {
      const valid = await useCases.verifyWebhookSignature.execute(
        context.tenant(),
        request.integration_instance_id,
        request.raw_body,
        request.signature,
      );
      return { valid };
    },
    async applyTrackingUpdate(request, context) {
      const answer = await useCases.applyTrackingUpdate.execute({
        tenantId: context.tenant(),
        instanceId: request.integration_instance_id,
        webhookEventId: request.webhook_event_id,
        generation: request.generation,
        update: fromProviderUpdate(request.update),
      });
      return {
        outcome: toOutcome(answer.outcome),
        status_from: answer.status_from,
        status_to: answer.status_to,
        tracking_id: answer.tracking_id,
      };
    },
    async verifyWebhookSignatures(request, context) {
      const results = await useCases.verifyWebhookSignatures.execute(
        context.tenant(),
        request.checks.map((check) => ({
          instanceId: check.integration_instance_id,
          rawBody: check.raw_body,
          signature: check.signature,
        })),
      );
      return {
        results: results.map((item) =>
          'answer' in item
            ? { valid: item.answer }
            : { valid: false, error: refusal(item.error, 'VerifyWebhookSignatures') },
        ),
      };
    },
    async applyTrackingUpdates(request, context) {
      const results = await useCases.applyTrackingUpdates.execute(
        context.tenant(),
        request.updates.map((update) => ({
          instanceId: update.integration_instance_id,
          webhookEventId: update.webhook_event_id,
          generation: update.generation,
          update: fromProviderUpdate(update.update),
        })),
      );
      return {
        results: results.map((item) =>
          'answer' in item
            ? {
                answer: {
                  outcome: toOutcome(item.answer.outcome),
                  status_from: item.answer.status_from,
                  status_to: item.answer.status_to,
                  tracking_id: item.answer.tracking_id,
                },
              }
            : { error: refusal(item.error, 'ApplyTrackingUpdates') },
        ),
      };
    },
    async listTrackings(request, context) {
      const { rows, total } = await useCases.listTrackings.execute(
        context.tenant(),
        request.integration_instance_id,
        fromListRequest(request),
      );
      return { trackings: rows.map(toTrackingRow), total };
    },
    async getTracking(request, context) {
      const { row, checkpoints } = await useCases.getTracking.execute(
        context.tenant(),
        request.integration_instance_id,
        request.id,
      );
      return { tracking: toTrackingRow(row), checkpoints: checkpoints.map(toCheckpoint) };
    },
  };
  return {
    name: 'inventory.parcel_tracking.v1.ParcelTrackingService',
    definition: ParcelTrackingServiceService,
    implementation,
  };
}
