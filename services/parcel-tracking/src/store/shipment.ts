import { Schema, type Connection, type Model } from 'mongoose';

/**
 * What intake knows about one trackable record (tenant, type, id), tracked or
 * not: untracked shipments are remembered here so connecting an instance, or
 * widening its auto-track settings, can backfill them.
 */
export interface ShipmentDocument {
  tenant_id: string;
  trackable_type: string;
  trackable_id: number;
  trackable_label: string;
  trackable_url: string;
  /** Null once the record's tracking was removed. */
  tracking_number: string | null;
  carrier_code: number | null;
  sales_channel_id: number | null;
  sub_channel_id: number | null;
  /** When the last applied intake event happened; older events are dropped. */
  event_at: Date;
  updated_at: Date;
}

const nullable = <T extends NumberConstructor | StringConstructor>(type: T) => ({
  type,
  default: null,
});

const schema = new Schema<ShipmentDocument>(
  {
    tenant_id: { type: String, required: true },
    trackable_type: { type: String, required: true },
    trackable_id: { type: Number, required: true },
    trackable_label: { type: String, default: '' },
    trackable_url: { type: String, default: '' },
    tracking_number: nullable(String),
    carrier_code: nullable(Number),
    sales_channel_id: nullable(Number),
    sub_channel_id: nullable(Number),
    event_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'shipments' },
);
schema.index({ tenant_id: 1, trackable_type: 1, trackable_id: 1 }, { unique: true });

export type ShipmentChange = Partial<
  Omit<
    ShipmentDocument,
    'tenant_id' | 'trackable_type' | 'trackable_id' | 'event_at' | 'updated_at'
  >
>;

export function shipmentModel(connection: Connection): Model<ShipmentDocument> {
  return connection.model<ShipmentDocument>('Shipment', schema);
}
