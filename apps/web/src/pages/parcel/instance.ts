import type { AutoTrackKey, SideEffectKey } from '@inventory/rules';

export const PREFIX = '/api/integrations/parcel-tracking';
/** The page's own path, below /app. */
export const PARCEL_PAGE = '/integrations/parcel-tracking';

/** UI wording for each setting key; the keys themselves are @inventory/rules'. */
export const AUTO_TRACK_LABELS: Record<AutoTrackKey, string> = {
  sales_order_fulfillments: 'Sales order fulfillments',
  inbound_shipments: 'Inbound shipments',
  warehouse_transfer_shipments: 'Warehouse transfer shipments',
  rmas: 'RMAs',
  vendor_credit_shipments: 'Vendor credit shipments',
};

export const SIDE_EFFECT_LABELS: Record<SideEffectKey, string> = {
  vendor_credit_shipment_auto_delivered:
    'Mark vendor credit shipments delivered when the carrier confirms',
  inbound_shipment_arrival_alert: 'Alert when an inbound shipment arrives',
  rma_arrival_alert: 'Alert when an RMA package arrives',
};

export const label = (status: string) => status.replace(/_/g, ' ');
