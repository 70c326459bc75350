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

export interface ChannelScope {
  default: 'all' | 'none';
  channels: Record<string, { enabled?: boolean; sub_channels?: Record<string, boolean> }>;
}

export interface TransitStats {
  delivered_count: number;
  average_days_in_transit: number | null;
  with_estimate_count: number;
  on_time_count: number;
  /** A percentage 0–100 (ADR 0200), null when no delivered row had an estimate. */
  on_time_rate: number | null;
}

export interface Instance {
  id: number;
  name: string;
  is_automatic_sync_enabled: boolean;
  auto_track: Record<string, boolean>;
  auto_track_channels: ChannelScope;
  webhook_url: string | null;
  quota: { used: number; total: number; remaining: number } | null;
  /** Why the live quota could not be read (the provider's answer), when `quota` is null. */
  quota_error?: { code: string; message: string } | null;
  status_counts: Record<string, number> | null;
  pending_registration_count?: number;
  registration_errors?: { message: string; count: number; last_failed_at: string | null }[];
  last_webhook_at: string | null;
  last_event_at: string | null;
  side_effects: Record<string, boolean>;
  quota_alert_threshold: number;
  transit?: TransitStats & {
    window_days: number;
    carriers: (TransitStats & { carrier_code: number | null; carrier_name: string | null })[];
  };
}

export const label = (status: string) => status.replace(/_/g, ' ');
