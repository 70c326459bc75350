import {
  WebhookIngestServiceClient,
  type IngestWebhookRequest,
  type IngestWebhookResponse,
  type ListWebhookEventsRequest,
  type ListWebhookEventsResponse,
  type GetReprocessJobRequest,
  type GetReprocessJobResponse,
  type ReprocessWebhookEventRequest,
  type ReprocessWebhookEventResponse,
  type StartReprocessJobRequest,
  type StartReprocessJobResponse,
  type ResolveTokenResponse,
} from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import { BatchedCalls, createGrpcClient, type GrpcClientHandle } from '@inventory/platform';
import { asHttp } from '../http/grpc-to-http.js';
import { FAIL_FAST_ON_A_STOPPED_SERVICE } from './downstream.js';

/**
 * The gateway's one door to webhook-ingest: token resolution, the durable inbox
 * and the webhook log. The log call carries the request's tenant as metadata.
 */
export interface WebhookIngestAdapter {
  resolveToken(token: string): Promise<ResolveTokenResponse>;
  /** Stored (2xx) unless `rejection` says it was stored as failed and must be refused. */
  ingest(request: IngestWebhookRequest): Promise<IngestWebhookResponse>;
  listWebhookEvents(request: ListWebhookEventsRequest): Promise<ListWebhookEventsResponse>;
  reprocessWebhookEvent(
    request: ReprocessWebhookEventRequest,
  ): Promise<ReprocessWebhookEventResponse>;
  startReprocessJob(request: StartReprocessJobRequest): Promise<StartReprocessJobResponse>;
  getReprocessJob(request: GetReprocessJobRequest): Promise<GetReprocessJobResponse>;
  close(): void;
  readonly handle: GrpcClientHandle<WebhookIngestServiceClient>;
}

export function createWebhookIngestAdapter(
  address: string,
  options: { deadlineMs?: number } = {},
): WebhookIngestAdapter {
  const handle = createGrpcClient(WebhookIngestServiceClient, address, {
    deadlineMs: options.deadlineMs ?? 5_000,
    ...FAIL_FAST_ON_A_STOPPED_SERVICE,
  });
  // Pushes that arrive while one batch is in flight go together in the next (ADR 0227): one
  // round trip for many under load, none added when idle; each push gets its own answer.
  const pushes = new BatchedCalls<IngestWebhookRequest, IngestWebhookResponse>({
    batch: async (webhooks) => (await handle.call.ingestWebhooks({ webhooks })).results,
    single: (request) => handle.call.ingestWebhook(request),
    sizeOf: (request) => request.raw_body.length,
    // The pushes read in one poll phase go together, not the first alone (ADR 0746).
    gatherTurn: true,
  });
  return {
    handle,
    resolveToken: (token) => asHttp(() => handle.call.resolveToken({ token })),
    ingest: (request) => asHttp(() => pushes.call(request)),
    listWebhookEvents: (request) => asHttp(() => handle.call.listWebhookEvents(request)),
    reprocessWebhookEvent: (request) => asHttp(() => handle.call.reprocessWebhookEvent(request)),
    startReprocessJob: (request) => asHttp(() => handle.call.startReprocessJob(request)),
    getReprocessJob: (request) => asHttp(() => handle.call.getReprocessJob(request)),
    close: () => handle.close(),
  };
}
