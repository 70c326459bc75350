import type { AutoTrackKey, SideEffectKey } from '@inventory/rules';

/**
 * The instance is a singleton per tenant, but the API has no "find mine": the id comes
 * from the connect answer and is remembered in this browser (per tenant host, as
 * localStorage is per origin). Someone on another browser opens it by id once.
 */
const KEY = 'inventory.parcel-tracking.instance';
export const PREFIX = '/api/integrations/parcel-tracking';

export const rememberedInstance = (): string | null => localStorage.getItem(KEY);
export const rememberInstance = (id: number | string | null) =>
  id === null ? localStorage.removeItem(KEY) : localStorage.setItem(KEY, String(id));

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
