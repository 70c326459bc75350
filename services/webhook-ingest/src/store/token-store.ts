import { Schema, type Connection, type Model } from 'mongoose';
import { tenantFilter } from '@inventory/platform';
import { hashToken } from '../domain/token-hash.js';

/** One registered inbound webhook token; the token itself is kept only as a hash. */
export interface TokenDocument {
  token_hash: string;
  tenant_id: string;
  provider: string;
  integration_instance_id: number;
  created_at: Date;
}

const schema = new Schema<TokenDocument>(
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

export class TokenStore {
  readonly model: Model<TokenDocument>;

  constructor(connection: Connection) {
    this.model = connection.model<TokenDocument>('WebhookToken', schema);
  }

  /** Throws a duplicate-key error when the token is already registered. */
  async register(
    tenantId: string,
    token: string,
    provider: string,
    instanceId: number,
  ): Promise<void> {
    await this.model.create({
      token_hash: hashToken(token),
      tenant_id: tenantId,
      provider,
      integration_instance_id: instanceId,
      created_at: new Date(),
    });
  }

  async unregister(tenantId: string, token: string): Promise<boolean> {
    const result = await this.model.deleteOne(
      tenantFilter<TokenDocument>(tenantId, { token_hash: hashToken(token) }),
    );
    return result.deletedCount === 1;
  }

  /** The one tenant-independent query: an inbound call is identified by its token alone. */
  resolve(token: string): Promise<TokenDocument | null> {
    return this.model.findOne({ token_hash: hashToken(token) }).lean<TokenDocument>();
  }
}
