import type { Connection } from 'mongoose';
import { TenantScopedRepository } from '@inventory/platform';
import { instanceHistoryModel, type InstanceHistoryDocument } from './instance-history.js';

export class InstanceHistoryRepository extends TenantScopedRepository<InstanceHistoryDocument> {
  constructor(connection: Connection) {
    super(instanceHistoryModel(connection));
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
