import { Schema, type Connection, type Model } from 'mongoose';
import { nextSequence, tenantFilter } from '@inventory/platform';

/**
 * The inbound webhook log (the specification's "Webhook event row"). A row is
 * stored durably as soon as a webhook arrives, before any processing; the
 * processing job (a later issue) fills result, status_from/to, summary and
 * processing_duration_ms. `state` says where processing stands.
 */
export interface WebhookEventDocument {
  id: number;
  tenant_id: string;
  integration_instance_id: number;
  provider: string;
  received_at: Date;
  event_type: string;
  tracking_number: string;
  status_from: string | null;
  status_to: string | null;
  summary: string | null;
  payload: Record<string, unknown> | null;
  raw_body: string;
  content_type: string;
  signature: string | null;
  state: 'received' | 'processed';
  result: 'processed' | 'failed' | 'ignored' | null;
  error_message: string | null;
  processing_duration_ms: number | null;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<WebhookEventDocument>(
  {
    id: { type: Number, required: true },
    tenant_id: { type: String, required: true },
    integration_instance_id: { type: Number, required: true },
    provider: { type: String, required: true },
    received_at: { type: Date, required: true },
    event_type: { type: String, default: '' },
    tracking_number: { type: String, default: '' },
    status_from: { type: String, default: null },
    status_to: { type: String, default: null },
    summary: { type: String, default: null },
    payload: { type: Schema.Types.Mixed, default: null },
    raw_body: { type: String, required: true },
    content_type: { type: String, default: '' },
    signature: { type: String, default: null },
    state: { type: String, required: true },
    result: { type: String, default: null },
    error_message: { type: String, default: null },
    processing_duration_ms: { type: Number, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'webhook_events', minimize: false },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ tenant_id: 1, integration_instance_id: 1, received_at: -1 });
schema.index({ state: 1, received_at: 1 });

export type NewWebhookEvent = Pick<
  WebhookEventDocument,
  | 'tenant_id'
  | 'integration_instance_id'
  | 'provider'
  | 'event_type'
  | 'tracking_number'
  | 'payload'
  | 'raw_body'
  | 'content_type'
  | 'signature'
>;

export class InboxStore {
  readonly model: Model<WebhookEventDocument>;

  constructor(private readonly connection: Connection) {
    this.model = connection.model<WebhookEventDocument>('WebhookEvent', schema);
  }

  async store(event: NewWebhookEvent): Promise<number> {
    const now = new Date();
    const id = await nextSequence(this.connection, 'webhook_events');
    await this.model.create({
      ...event,
      id,
      received_at: now,
      status_from: null,
      status_to: null,
      summary: null,
      state: 'received',
      result: null,
      error_message: null,
      processing_duration_ms: null,
      created_at: now,
      updated_at: now,
    });
    return id;
  }

  async summary(
    tenantId: string,
    instanceId: number,
  ): Promise<{ last_webhook_at: Date | null; received_count: number }> {
    const scope = tenantFilter<WebhookEventDocument>(tenantId, {
      integration_instance_id: instanceId,
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
