/** The outbound event catalog (libs/events WEBHOOK_EVENT_CATALOG), for the checkboxes. */
export const WEBHOOK_EVENTS = [
  'sales_order.created',
  'sales_order.shipped',
  'sales_order.cancelled',
  'purchase_order.created',
  'purchase_order.approved',
  'purchase_order.submitted',
  'purchase_order.received',
  'inventory.adjusted',
  'product.created',
  'customer.created',
] as const;

export interface Subscription {
  id: number;
  url: string;
  events: string[];
  description: string | null;
  is_active: boolean;
  created_at: string;
}

export interface Delivery {
  delivery_id: string;
  event: string;
  status: string;
  occurred_at: string | null;
  created_at: string | null;
  next_attempt_at: string | null;
  attempts: {
    attempted_at: string | null;
    response_status: number | null;
    duration_ms: number;
    error: string | null;
    response_body: string | null;
  }[];
}
