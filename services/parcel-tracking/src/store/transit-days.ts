import { Schema, type Connection, type Model } from 'mongoose';
import type { CarrierTransitSums } from '../domain/transit.js';

/**
 * An instance's transit sums per whole UTC day of the analytics window, per carrier, as they
 * were when `computed_at` was taken: the dashboard re-reads only the days whose rows changed
 * since (ADR 0239). A cache of the rows: deleting it costs one full read, nothing else.
 */
export interface TransitDaysDocument {
  tenant_id: string;
  integration_instance_id: number;
  computed_at: Date;
  days: Array<{ day: string; carriers: CarrierTransitSums[] }>;
}

const carrierSums = new Schema<CarrierTransitSums>(
  {
    carrier_code: { type: Number, default: null },
    carrier_name: { type: String, default: null },
    delivered_count: { type: Number, required: true },
    days_in_transit: { type: Number, required: true },
    with_estimate_count: { type: Number, required: true },
    on_time_count: { type: Number, required: true },
  },
  { _id: false },
);

const schema = new Schema<TransitDaysDocument>(
  {
    tenant_id: { type: String, required: true },
    integration_instance_id: { type: Number, required: true },
    computed_at: { type: Date, required: true },
    days: {
      type: [{ _id: false, day: { type: String, required: true }, carriers: [carrierSums] }],
      default: [],
    },
  },
  { versionKey: false, collection: 'transit_days' },
);
schema.index({ tenant_id: 1, integration_instance_id: 1 }, { unique: true });

export function transitDaysModel(connection: Connection): Model<TransitDaysDocument> {
  return connection.model<TransitDaysDocument>('TransitDays', schema);
}
