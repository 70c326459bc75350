import { Schema, type Connection } from 'mongoose';
import { isDuplicateKeyError, TenantScopedRepository } from '@inventory/platform';

/** The answer ApplyTrackingUpdate gave for one webhook event, so a retry gets the same one. */
export interface AppliedUpdateDocument {
  tenant_id: string;
  webhook_event_id: number;
  integration_instance_id: number;
  outcome: string;
  status_from: string;
  status_to: string;
  tracking_id: number;
  created_at: Date;
}

const schema = new Schema<AppliedUpdateDocument>(
  {
    tenant_id: { type: String, required: true },
    webhook_event_id: { type: Number, required: true },
    integration_instance_id: { type: Number, required: true },
    outcome: { type: String, required: true },
    status_from: { type: String, default: '' },
    status_to: { type: String, default: '' },
    tracking_id: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'applied_updates' },
);
schema.index({ tenant_id: 1, webhook_event_id: 1 }, { unique: true });

export type AppliedUpdate = Omit<AppliedUpdateDocument, 'tenant_id' | 'created_at'>;

export class AppliedUpdateStore extends TenantScopedRepository<AppliedUpdateDocument> {
  constructor(connection: Connection) {
    super(connection.model<AppliedUpdateDocument>('AppliedUpdate', schema));
  }

  find(tenantId: string, webhookEventId: number): Promise<AppliedUpdateDocument | null> {
    return this.findOne(tenantId, { webhook_event_id: webhookEventId });
  }

  /** Records the first answer; a concurrent duplicate keeps the one already stored. */
  async record(tenantId: string, answer: AppliedUpdate): Promise<AppliedUpdate> {
    try {
      // Through the driver: every field is set here, so mongoose's casting, validation and save
      // hooks only cost CPU on every webhook (they showed in the profile, ADR 0224).
      const document: AppliedUpdateDocument = {
        webhook_event_id: answer.webhook_event_id,
        integration_instance_id: answer.integration_instance_id,
        outcome: answer.outcome,
        status_from: answer.status_from ?? '',
        status_to: answer.status_to ?? '',
        tracking_id: answer.tracking_id ?? 0,
        tenant_id: tenantId,
        created_at: new Date(),
      };
      await this.driverCollection().insertOne(document);
      return answer;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return (await this.find(tenantId, answer.webhook_event_id)) ?? answer;
    }
  }
}
