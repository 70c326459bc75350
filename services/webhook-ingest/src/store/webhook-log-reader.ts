import type { Connection } from 'mongoose';
import { escapeRegex, TenantScopedRepository, type ScopedFilter } from '@inventory/platform';
import { webhookEventModel, type WebhookEventDocument } from './webhook-event.js';

export interface ListQuery {
  eventTypes: string[];
  results: string[];
  trackingNumber: string;
  /** The whole number, not a substring (one shipment's webhooks). */
  trackingNumberExact?: boolean;
  receivedFrom?: Date;
  receivedTo?: Date;
  sort: Array<{ field: string; descending: boolean }>;
  page: number;
  perPage: number;
}

/** The read side of the webhook log: the log endpoint's page and the dashboard's summary. */
export class WebhookLogReader extends TenantScopedRepository<WebhookEventDocument> {
  constructor(connection: Connection) {
    super(webhookEventModel(connection));
  }

  async list(
    tenantId: string,
    instanceIds: number[],
    query: ListQuery,
  ): Promise<{ rows: WebhookEventDocument[]; total: number }> {
    const filter: ScopedFilter<WebhookEventDocument> = {
      integration_instance_id: instanceIds.length === 1 ? instanceIds[0]! : { $in: instanceIds },
      state: 'done',
    };
    if (query.eventTypes.length > 0) filter.event_type = { $in: query.eventTypes };
    if (query.results.length > 0) filter.result = { $in: query.results };
    if (query.trackingNumber) {
      const literal = escapeRegex(query.trackingNumber);
      filter.tracking_number = {
        $regex: query.trackingNumberExact ? `^${literal}$` : literal,
        $options: 'i',
      };
    }
    if (query.receivedFrom || query.receivedTo)
      filter.received_at = {
        ...(query.receivedFrom ? { $gte: query.receivedFrom } : {}),
        ...(query.receivedTo ? { $lte: query.receivedTo } : {}),
      };
    const sort: Record<string, 1 | -1> = {};
    for (const key of query.sort) sort[key.field] = key.descending ? -1 : 1;
    const last = query.sort[query.sort.length - 1];
    sort.id ??= last?.descending === false ? 1 : -1;
    return this.page(tenantId, filter, { sort, page: query.page, perPage: query.perPage });
  }

  /**
   * When the instance last received a webhook: the newest row, read from the index's end. A forged
   * push (bad signature) is no sign of life from the provider, so it is passed over.
   */
  async summary(tenantId: string, instanceId: number): Promise<{ last_webhook_at: Date | null }> {
    const filter: ScopedFilter<WebhookEventDocument> = {
      integration_instance_id: instanceId,
      signature_state: { $ne: 'invalid' },
    };
    const [last] = await this.findMany(tenantId, filter, {
      sort: { received_at: -1 },
      limit: 1,
      projection: { received_at: 1 },
    });
    return { last_webhook_at: last?.received_at ?? null };
  }
}
