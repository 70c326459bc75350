import { status as GrpcStatus } from '@grpc/grpc-js';
import {
  WebhookIngestServiceClient,
  type IngestWebhookRequest,
  type IngestWebhookResponse,
  type ListWebhookEventsRequest,
  type ListWebhookEventsResponse,
  type ResolveTokenResponse,
} from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import {
  AppError,
  createGrpcClient,
  GroupCommitQueue,
  newRequestId,
  runWithContext,
  type GrpcClientHandle,
} from '@inventory/platform';
import { asHttp } from '../http/grpc-to-http.js';

/**
 * The gateway's one door to webhook-ingest: token resolution, the durable inbox
 * and the webhook log. The log call carries the request's tenant as metadata.
 */
export interface WebhookIngestAdapter {
  resolveToken(token: string): Promise<ResolveTokenResponse>;
  /** Stored (2xx) unless `rejection` says it was stored as failed and must be refused. */
  ingest(request: IngestWebhookRequest): Promise<IngestWebhookResponse>;
  listWebhookEvents(request: ListWebhookEventsRequest): Promise<ListWebhookEventsResponse>;
  close(): void;
  readonly handle: GrpcClientHandle<WebhookIngestServiceClient>;
}

/** Bodies larger than this are handed over one by one, never in a batch. */
export const BATCHED_BODY_MAX_BYTES = 64 * 1024;

export function createWebhookIngestAdapter(
  address: string,
  options: { deadlineMs?: number } = {},
): WebhookIngestAdapter {
  const handle = createGrpcClient(WebhookIngestServiceClient, address, {
    deadlineMs: options.deadlineMs ?? 5_000,
    // A frozen webhook-ingest fails in-flight calls within seconds, not at the deadline (ADR 0710).
    keepalive: { timeMs: 1_000, timeoutMs: 2_000 },
  });
  // Pushes that arrive while one batch is in flight go together in the next (ADR 0227): one
  // round trip for many under load, none added when idle. Each push gets its own answer, or its
  // own refusal (the queue rejects an item whose answer is an Error), mapped as a single call's.
  const pushes = new GroupCommitQueue<IngestWebhookRequest, IngestWebhookResponse | AppError>(
    async (batch) => {
      // A batch carries many requests: its own id, not the first push's.
      const { results } = await runWithContext({ requestId: newRequestId() }, () =>
        handle.call.ingestWebhooks({ webhooks: batch }),
      );
      return results.map((result) =>
        result.error
          ? new AppError(
              result.error.code,
              result.error.reason,
              result.error.message,
              result.error.violations,
            )
          : (result.answer ?? new AppError(GrpcStatus.INTERNAL, '', 'Internal error')),
      );
    },
    // With bodies of at most BATCHED_BODY_MAX_BYTES, a batch stays below 4 MiB.
    64,
  );
  return {
    handle,
    resolveToken: (token) => asHttp(() => handle.call.resolveToken({ token })),
    // A large body goes alone, so a batch stays far below the 8 MiB a gRPC message may carry
    // (64 pushes of at most 64 KiB each; bodies reach 1 MiB).
    ingest: (request) =>
      asHttp(async () =>
        request.raw_body.length > BATCHED_BODY_MAX_BYTES
          ? handle.call.ingestWebhook(request)
          : ((await pushes.add(request)) as IngestWebhookResponse),
      ),
    listWebhookEvents: (request) => asHttp(() => handle.call.listWebhookEvents(request)),
    close: () => handle.close(),
  };
}
