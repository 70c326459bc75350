import { Schema, type Connection, type Model } from 'mongoose';

/** One registered inbound webhook token; the token itself is kept only as a hash. */
export interface WebhookTokenDocument {
  token_hash: string;
  tenant_id: string;
  provider: string;
  integration_instance_id: number;
  created_at: Date;
}

const schema = new Schema<WebhookTokenDocument>(
  {
    token_hash: { type: String, required: true },
    tenant_id: { type: String, required: true },
    provider: { type: String, required: true },
    integration_instance_id: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'webhook_tokens' },
);
schema.index({ token_hash: 1 }, { unique: true });
schema.index({ tenant_id: 1, integration_instance_id: 1 });

/** The `webhook_tokens` collection's model on a connection (kept private by its repository). */
export function webhookTokenModel(connection: Connection): Model<WebhookTokenDocument> {
  return connection.model<WebhookTokenDocument>('WebhookToken', schema);
}
