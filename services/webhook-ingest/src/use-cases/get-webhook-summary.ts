import type { WebhookLogReader } from '../store/webhook-log-reader.js';

/** When the instance last received a webhook (the dashboard's `last_webhook_at`). */
export class GetWebhookSummary {
  constructor(private readonly log: WebhookLogReader) {}

  execute(tenantId: string, instanceId: number) {
    return this.log.summary(tenantId, instanceId);
  }
}
