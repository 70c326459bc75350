import type { Model } from 'mongoose';
import { escapeRegex, tenantFilter } from '@inventory/platform';
import type { WebhookEventDocument } from './inbox-store.js';

export interface ListQuery {
  eventTypes: string[];
  results: string[];
  trackingNumber: string;
  receivedFrom?: Date;
  receivedTo?: Date;
  sort: Array<{ field: string; descending: boolean }>;
  page: number;
  perPage: number;
}

/** The read side of the webhook log: the log endpoint's page and the dashboard's summary. */
export class WebhookLogReader {
  constructor(private readonly model: Model<WebhookEventDocument>) {}

  async list(
    tenantId: string,
    instanceId: number,
    query: ListQuery,
  ): Promise<{ rows: WebhookEventDocument[]; total: number }> {
    const filter: Record<string, unknown> = { integration_instance_id: instanceId, state: 'done' };
    if (query.eventTypes.length > 0) filter.event_type = { $in: query.eventTypes };
    if (query.results.length > 0) filter.result = { $in: query.results };
    if (query.trackingNumber)
      filter.tracking_number = { $regex: escapeRegex(query.trackingNumber), $options: 'i' };
    if (query.receivedFrom || query.receivedTo)
      filter.received_at = {
        ...(query.receivedFrom ? { $gte: query.receivedFrom } : {}),
        ...(query.receivedTo ? { $lte: query.receivedTo } : {}),
      };
    const scoped = tenantFilter<WebhookEventDocument>(tenantId, filter);
    const sort: Record<string, 1 | -1> = {};
    for (const key of query.sort) sort[key.field] = key.descending ? -1 : 1;
    const last = query.sort[query.sort.length - 1];
    sort.id ??= last?.descending === false ? 1 : -1;
    const [rows, total] = await Promise.all([
      this.model
        .find(scoped)
        .sort(sort)
        .skip((query.page - 1) * query.perPage)
        .limit(query.perPage)
        .lean<WebhookEventDocument[]>(),
      this.model.countDocuments(scoped),
    ]);
    return { rows, total };
  }

  /** A forged push (bad signature) is no sign of life from the provider: not counted. */
  async summary(
    tenantId: string,
    instanceId: number,
  ): Promise<{ last_webhook_at: Date | null; received_count: number }> {
    const scope = tenantFilter<WebhookEventDocument>(tenantId, {
      integration_instance_id: instanceId,
      signature_state: { $ne: 'invalid' },
    });
    const [last, count] = await Promise.all([
      this.model
        .findOne(scope, { received_at: 1 })
        .sort({ received_at: -1 })
        .lean<{ received_at: Date }>(),
      this.model.countDocuments(scope),
    ]);
    return { last_webhook_at: last?.received_at ?? null, received_count: count };
  }
}
