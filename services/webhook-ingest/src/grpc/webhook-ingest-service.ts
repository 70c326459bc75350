import {
  WebhookIngestServiceService,
  type IngestWebhookRequest,
  type IngestWebhookResponse,
  type WebhookIngestServiceServer,
} from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import {
  batchItemError,
  type AsyncService,
  type Logger,
  type ServiceRegistration,
} from '@inventory/platform';
import { pageInfo } from '@inventory/rules';
import type { GetWebhookSummary } from '../use-cases/get-webhook-summary.js';
import type { IngestWebhook } from '../use-cases/ingest-webhook.js';
import type { ListWebhookEvents } from '../use-cases/list-webhook-events.js';
import type {
  GetReprocessJob,
  ReprocessJobView,
  StartReprocessJob,
} from '../use-cases/reprocess-jobs.js';
import type { ReprocessWebhookEvent } from '../use-cases/reprocess-webhook-event.js';
import { toWebhookEvent } from './mappers.js';
import type { RegisterToken } from '../use-cases/register-token.js';
import type { ResolveToken } from '../use-cases/resolve-token.js';
import type { UnregisterToken } from '../use-cases/unregister-token.js';

export interface WebhookIngestUseCases {
  registerToken: RegisterToken;
  unregisterToken: UnregisterToken;
  resolveToken: ResolveToken;
  ingestWebhook: IngestWebhook;
  getWebhookSummary: GetWebhookSummary;
  listWebhookEvents: ListWebhookEvents;
  reprocessWebhookEvent: ReprocessWebhookEvent;
  startReprocessJob: StartReprocessJob;
  getReprocessJob: GetReprocessJob;
}

const toReprocessJob = (view: ReprocessJobView) => ({
  id: view.job.id,
  integration_instance_id: view.job.integration_instance_id,
  status: view.status,
  total: view.total,
  queued: view.queued,
  done: view.done,
  created_at: view.job.created_at,
  finished_at: view.job.finished_at ?? undefined,
});

export function webhookIngestService(
  useCases: WebhookIngestUseCases,
  logger: Logger,
): ServiceRegistration<WebhookIngestServiceServer> {
  const ingest = async (
    request: IngestWebhookRequest,
    context: { signal: AbortSignal },
  ): Promise<IngestWebhookResponse> => {
    const answer = await useCases.ingestWebhook.execute({
      token: request.token,
      provider: request.provider,
      rawBody: request.raw_body,
      contentType: request.content_type,
      signature: request.signature,
      tenantId: request.tenant_id,
      callerAnswered: context.signal,
    });
    return {
      webhook_event_id: answer.id,
      rejection: answer.rejection,
      message: answer.rejection === '' ? '' : answer.message,
      violations: answer.rejection === 'invalid_body' ? answer.violations : [],
    };
  };
  const implementation: AsyncService<WebhookIngestServiceServer> = {
    async registerToken(request, context) {
      await useCases.registerToken.execute(
        context.tenant(),
        request.token,
        request.provider,
        request.integration_instance_id,
      );
      return {};
    },
    async unregisterToken(request, context) {
      return { removed: await useCases.unregisterToken.execute(context.tenant(), request.token) };
    },
    // No tenant here: the token is what identifies the tenant of an inbound call.
    async resolveToken(request) {
      const owner = await useCases.resolveToken.execute(request.token);
      return {
        tenant_id: owner.tenant_id,
        provider: owner.provider,
        integration_instance_id: owner.integration_instance_id,
      };
    },
    ingestWebhook: ingest,
    // Each webhook as IngestWebhook answers it, its refusal its own (ADR 0227): one webhook's
    // failure never fails the others, which may already be stored and must be acknowledged.
    async ingestWebhooks(request, context) {
      const settled = await Promise.allSettled(
        request.webhooks.map((webhook) => ingest(webhook, context)),
      );
      return {
        results: settled.map((result) => {
          if (result.status === 'fulfilled') return { answer: result.value };
          // As the gRPC boundary answers a single call (an unreachable store is UNAVAILABLE, so
          // the provider retries), each webhook on its own.
          return {
            error: batchItemError(result.reason, logger, { grpc_method: 'IngestWebhooks' }),
          };
        }),
      };
    },
    async listWebhookEvents(request, context) {
      const page = await useCases.listWebhookEvents.execute(context.tenant(), request);
      return {
        events: page.rows.map(toWebhookEvent),
        page_info: pageInfo(page.page, page.perPage, page.total, page.rows.length),
      };
    },
    async reprocessWebhookEvent(request, context) {
      const row = await useCases.reprocessWebhookEvent.execute(
        context.tenant(),
        [request.integration_instance_id, ...request.history_instance_ids],
        request.id,
      );
      return { event: toWebhookEvent(row) };
    },
    async startReprocessJob(request, context) {
      return {
        job: toReprocessJob(await useCases.startReprocessJob.execute(context.tenant(), request)),
      };
    },
    async getReprocessJob(request, context) {
      return {
        job: toReprocessJob(await useCases.getReprocessJob.execute(context.tenant(), request)),
      };
    },
    async getWebhookSummary(request, context) {
      const summary = await useCases.getWebhookSummary.execute(
        context.tenant(),
        request.integration_instance_id,
      );
      return { last_webhook_at: summary.last_webhook_at ?? undefined };
    },
  };
  return {
    name: 'inventory.webhook_ingest.v1.WebhookIngestService',
    definition: WebhookIngestServiceService,
    implementation,
  };
}
