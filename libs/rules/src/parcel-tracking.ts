/** The specification's ten delivery statuses, in display order (status_counts buckets). */
export const DELIVERY_STATUSES = [
  'pending',
  'info_received',
  'in_transit',
  'available_for_pickup',
  'out_for_delivery',
  'delivered',
  'delivery_failure',
  'exception',
  'expired',
  'not_found',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** An instance's `auto_track` flags: one per trackable record type. */
export const AUTO_TRACK_KEYS = [
  'sales_order_fulfillments',
  'inbound_shipments',
  'warehouse_transfer_shipments',
  'rmas',
  'vendor_credit_shipments',
] as const;
export type AutoTrackKey = (typeof AUTO_TRACK_KEYS)[number];

/** An instance's `side_effects` flags: what a delivery may do beyond updating its row. */
export const SIDE_EFFECT_KEYS = [
  'vendor_credit_shipment_auto_delivered',
  'inbound_shipment_arrival_alert',
  'rma_arrival_alert',
] as const;
export type SideEffectKey = (typeof SIDE_EFFECT_KEYS)[number];

/** What the trackings list sorts by (default: newest `created_at` first). */
export const TRACKING_SORTS = ['created_at', 'last_event_at', 'delivered_at'] as const;
export type TrackingSort = (typeof TRACKING_SORTS)[number];

export const TRACKINGS_DEFAULT_PER_PAGE = 10;
/**
 * The spec sets no hard maximum (it advises at most 100); 1000 keeps one call bounded, as the
 * webhook log and the activity list do. The gateway answers 422 above it, the service
 * INVALID_ARGUMENT (ADR 0210).
 */
export const TRACKINGS_MAX_PER_PAGE = 1000;

/**
 * The most carrier checkpoints a tracking row keeps (the newest; older ones are dropped as new
 * ones arrive). A parcel rarely has more than 40; webhook-ingest hands on at most this many of a
 * push's events too (ADR 0216).
 */
export const TRACKING_CHECKPOINTS_MAX = 100;

/**
 * Stalled and late shipments (ADR 0218): the watch settings of an instance that has not set its
 * own, and the bounds of the ones it sets. A month without a checkpoint is a lost parcel, not a
 * slow one; fifty carriers are more than a merchant ships with.
 */
export const SHIPMENT_WATCH_DEFAULTS = {
  stalled_after_hours: 72,
  carrier_stalled_after_hours: [] as Array<{ carrier_code: number; hours: number }>,
  stalled_alert: true,
  late_alert: true,
} as const;
export const STALLED_AFTER_HOURS_MAX = 720;
export const CARRIER_THRESHOLDS_MAX = 50;

/**
 * The record types a tracking row belongs to, by the slug rows store, in display order: the web
 * app's model class (`filter[trackable_type]` accepts it too) and the `auto_track` flag that
 * turns auto-tracking of the type on.
 */
export const TRACKABLE_TYPES = {
  sales_order_fulfillment: {
    modelClass: 'App\\Models\\SalesOrderFulfillment',
    autoTrackKey: 'sales_order_fulfillments',
  },
  inbound_shipment: {
    modelClass: 'App\\Models\\InboundShipment',
    autoTrackKey: 'inbound_shipments',
  },
  warehouse_transfer_shipment: {
    modelClass: 'App\\Models\\WarehouseTransferShipment',
    autoTrackKey: 'warehouse_transfer_shipments',
  },
  rma: { modelClass: 'App\\Models\\Rma', autoTrackKey: 'rmas' },
  vendor_credit_shipment: {
    modelClass: 'App\\Models\\VendorCreditShipment',
    autoTrackKey: 'vendor_credit_shipments',
  },
} as const satisfies Record<string, { modelClass: string; autoTrackKey: AutoTrackKey }>;
export type TrackableType = keyof typeof TRACKABLE_TYPES;
/** The slugs alone, in display order. */
export const TRACKABLE_TYPE_SLUGS = Object.keys(TRACKABLE_TYPES) as TrackableType[];
