import type { WebhookEventRepository } from '../store/webhook-event-repository.js';

/** When the instance last received a webhook (the dashboard's `last_webhook_at`). */
export class GetWebhookSummary {
  constructor(private readonly log: WebhookEventRepository) {}

  execute(tenantId: string, instanceId: number) {
    return this.log.summary(tenantId, instanceId);
  }
}
