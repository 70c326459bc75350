import type { InboxStore } from '../store/inbox-store.js';

/** When the instance last received a webhook, and how many it has received. */
export class GetWebhookSummary {
  constructor(private readonly inbox: InboxStore) {}

  execute(tenantId: string, instanceId: number) {
    return this.inbox.summary(tenantId, instanceId);
  }
}
