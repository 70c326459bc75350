import { Schema, type Connection } from 'mongoose';
import { TenantScopedRepository } from '@inventory/platform';

/**
 * A disconnected instance, remembered after its instance document is deleted: its rows (here,
 * in webhook-ingest and in activity) are kept read-only, and the tenant's next instance lists
 * them as its history (ADR 0215).
 */
export interface InstanceHistoryDocument {
  tenant_id: string;
  instance_id: number;
  disconnected_at: Date;
}

const schema = new Schema<InstanceHistoryDocument>(
  {
    tenant_id: { type: String, required: true },
    instance_id: { type: Number, required: true },
    disconnected_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'instance_history' },
);
schema.index({ tenant_id: 1, instance_id: 1 }, { unique: true });

export class InstanceHistoryStore extends TenantScopedRepository<InstanceHistoryDocument> {
  constructor(connection: Connection) {
    super(connection.model<InstanceHistoryDocument>('InstanceHistory', schema));
  }

  /** Idempotent: a retried disconnect remembers the instance once. */
  async remember(tenantId: string, instanceId: number, at: Date): Promise<void> {
    await this.upsertOne(
      tenantId,
      { instance_id: instanceId },
      { $setOnInsert: { disconnected_at: at } },
    );
  }

  /** The tenant's disconnected instances, oldest first (a tenant has one at a time, so few). */
  async instanceIds(tenantId: string): Promise<number[]> {
    const rows = await this.findMany(tenantId, {}, { sort: { instance_id: 1 } });
    return rows.map((row) => row.instance_id);
  }
}
