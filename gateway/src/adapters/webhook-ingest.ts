import {
  WebhookIngestServiceClient,
  type IngestWebhookRequest,
  type ResolveTokenResponse,
} from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import { createGrpcClient, type GrpcClientHandle } from '@inventory/platform';
import { asHttp } from '../http/grpc-to-http.js';

/** The gateway's one door to webhook-ingest: token resolution and the durable inbox. */
export interface WebhookIngestAdapter {
  resolveToken(token: string): Promise<ResolveTokenResponse>;
  ingest(request: IngestWebhookRequest): Promise<number>;
  close(): void;
  readonly handle: GrpcClientHandle<WebhookIngestServiceClient>;
}

export function createWebhookIngestAdapter(
  address: string,
  options: { deadlineMs?: number } = {},
): WebhookIngestAdapter {
  const handle = createGrpcClient(WebhookIngestServiceClient, address, {
    deadlineMs: options.deadlineMs ?? 5_000,
  });
  return {
    handle,
    resolveToken: (token) => asHttp(() => handle.call.resolveToken({ token })),
    ingest: (request) =>
      asHttp(async () => (await handle.call.ingestWebhook(request)).webhook_event_id),
    close: () => handle.close(),
  };
}
