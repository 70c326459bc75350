import {
  ShipmentTrackingAssigned,
  ShipmentTrackingChanged,
  ShipmentTrackingRemoved,
  VendorCreditShipmentDelivered,
} from '@inventory/contracts/events/v1/shipment.js';
import { defineEvent, type StreamSpec } from '@inventory/platform';

/** Shipment tracking events of the areas that own trackable records (proto/events/v1/shipment.proto). */
export const SHIPMENTS_STREAM: StreamSpec = { name: 'SHIPMENTS', subjects: ['shipment.>'] };

export const shipmentTrackingAssigned = defineEvent(
  'shipment.tracking_assigned',
  ShipmentTrackingAssigned,
);
export const shipmentTrackingChanged = defineEvent(
  'shipment.tracking_changed',
  ShipmentTrackingChanged,
);
export const shipmentTrackingRemoved = defineEvent(
  'shipment.tracking_removed',
  ShipmentTrackingRemoved,
);
/** Published by parcel-tracking when a vendor credit shipment is delivered (side effect). */
export const vendorCreditShipmentDelivered = defineEvent(
  'shipment.vendor_credit_delivered',
  VendorCreditShipmentDelivered,
);

/** The trackable record types (slugs) and the auto_track flag that governs each. */
export const TRACKABLE_TYPES = {
  sales_order_fulfillment: 'sales_order_fulfillments',
  inbound_shipment: 'inbound_shipments',
  warehouse_transfer_shipment: 'warehouse_transfer_shipments',
  rma: 'rmas',
  vendor_credit_shipment: 'vendor_credit_shipments',
} as const;
export type TrackableType = keyof typeof TRACKABLE_TYPES;
export const TRACKABLE_TYPE_SLUGS = Object.keys(TRACKABLE_TYPES) as TrackableType[];

export type {
  ShipmentTrackingAssigned,
  ShipmentTrackingChanged,
  ShipmentTrackingRemoved,
  VendorCreditShipmentDelivered,
};
