import type { Connection } from 'mongoose';
import { isDuplicateKeyError, TenantScopedRepository } from '@inventory/platform';
import type { CarrierTransitSums } from '../domain/transit.js';
import { transitDaysModel, type TransitDaysDocument } from './transit-days.js';

export class TransitDaysRepository extends TenantScopedRepository<TransitDaysDocument> {
  constructor(connection: Connection) {
    super(transitDaysModel(connection));
  }

  /** The instance's kept sums: when they were taken, and each whole day's. */
  async kept(
    tenantId: string,
    instanceId: number,
  ): Promise<{ computedAt: Date; days: Map<string, CarrierTransitSums[]> } | null> {
    const document = await this.findOne(tenantId, { integration_instance_id: instanceId });
    if (!document) return null;
    return {
      computedAt: document.computed_at,
      days: new Map(document.days.map(({ day, carriers }) => [day, carriers])),
    };
  }

  /**
   * Replaces the instance's kept sums. Two readers keeping at once both wrote sums they computed
   * from rows read after their `computedAt`, so either may win; a first keep lost to another
   * replica's is dropped.
   */
  async keep(
    tenantId: string,
    instanceId: number,
    computedAt: Date,
    days: Map<string, CarrierTransitSums[]>,
  ): Promise<void> {
    const update = {
      $set: {
        computed_at: computedAt,
        days: [...days].map(([day, carriers]) => ({ day, carriers })),
      },
    };
    try {
      await this.upsertOne(tenantId, { integration_instance_id: instanceId }, update);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /** Forgets a disconnected instance's sums. */
  async forget(tenantId: string, instanceId: number): Promise<void> {
    await this.deleteMany(tenantId, { integration_instance_id: instanceId });
  }
}
