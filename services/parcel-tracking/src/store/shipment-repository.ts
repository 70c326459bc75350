import type { Connection } from 'mongoose';
import { isDuplicateKeyError, TenantScopedRepository } from '@inventory/platform';
import { shipmentModel, type ShipmentChange, type ShipmentDocument } from './shipment.js';

export class ShipmentRepository extends TenantScopedRepository<ShipmentDocument> {
  constructor(connection: Connection) {
    super(shipmentModel(connection));
  }

  /**
   * Applies an intake event when it is newer than what is held (a conditional
   * upsert: an older or repeated event meets the unique key and changes
   * nothing). Returns the shipment as it now stands, applied or not.
   */
  async applyIfNewer(
    tenantId: string,
    key: { trackable_type: string; trackable_id: number },
    change: ShipmentChange,
    eventAt: Date,
  ): Promise<ShipmentDocument | null> {
    try {
      // An inserted shipment takes its tenant from the scoped filter.
      const doc = await this.findOneAndUpdate(
        tenantId,
        { ...key, event_at: { $lt: eventAt } },
        {
          $set: { ...change, event_at: eventAt, updated_at: new Date() },
          $setOnInsert: { ...key },
        },
        { upsert: true },
      );
      if (doc) return doc;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    return this.findOne(tenantId, key);
  }

  /** Every remembered shipment of the tenant that still has a tracking number. */
  withNumber(tenantId: string): Promise<ShipmentDocument[]> {
    return this.findMany(tenantId, { tracking_number: { $ne: null } });
  }
}
