import { WebhookIngestServiceClient } from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import { createGrpcClient, type GrpcClientHandle } from '@inventory/platform';

/** webhook-ingest's central token registry, and its per-instance webhook summary. */
export interface WebhookRegistry {
  register(token: string, provider: string, instanceId: number): Promise<void>;
  unregister(token: string): Promise<void>;
  lastWebhookAt(instanceId: number): Promise<Date | null>;
  close(): void;
}

export function createWebhookRegistry(address: string, deadlineMs: number): WebhookRegistry {
  const handle: GrpcClientHandle<WebhookIngestServiceClient> = createGrpcClient(
    WebhookIngestServiceClient,
    address,
    { deadlineMs },
  );
  return {
    async register(token, provider, instanceId) {
      await handle.call.registerToken({ token, provider, integration_instance_id: instanceId });
    },
    async unregister(token) {
      await handle.call.unregisterToken({ token });
    },
    async lastWebhookAt(instanceId) {
      const summary = await handle.call.getWebhookSummary({ integration_instance_id: instanceId });
      return summary.last_webhook_at ?? null;
    },
    close: () => handle.close(),
  };
}
