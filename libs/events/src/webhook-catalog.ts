// No imports: the web app bundles this file for the browser (`@inventory/events/browser`).

/**
 * The outbound-webhook event catalog (spec: Events → Outbound webhooks): each event's name, when
 * it fires (`description`, the specification's words) and the token scope (and user permission)
 * a subscriber needs to receive it; the schema of its `data` is in webhook-event-schemas.ts. The one definition
 * the gateway's subscription check and the outbound-delivery service both read.
 */
export const WEBHOOK_EVENT_CATALOG = {
  'sales_order.created': {
    scope: 'orders:read',
    firesWhen: 'a sales order is created',
    description: 'A sales order is created (any channel or manual).',
  },
  'sales_order.shipped': {
    scope: 'orders:read',
    firesWhen: 'a sales order is fully shipped',
    description: 'A sales order is fully fulfilled / shipped.',
  },
  'sales_order.cancelled': {
    scope: 'orders:read',
    firesWhen: 'a sales order is cancelled',
    description: 'A sales order is cancelled (manual or channel sync).',
  },
  'purchase_order.created': {
    scope: 'purchase-orders:read',
    firesWhen: 'a purchase order is created',
    description: 'A purchase order is created.',
  },
  'purchase_order.approved': {
    scope: 'purchase-orders:read',
    firesWhen: 'a purchase order is approved',
    description: 'A purchase order is approved.',
  },
  'purchase_order.submitted': {
    scope: 'purchase-orders:read',
    firesWhen: 'a purchase order is submitted to the supplier',
    description: 'A purchase order is submitted to the supplier.',
  },
  'purchase_order.received': {
    scope: 'purchase-orders:read',
    firesWhen: 'goods are received against a purchase order',
    description: 'Goods are received against a purchase order.',
  },
  'inventory.adjusted': {
    scope: 'inventory:read',
    firesWhen: 'inventory levels are adjusted',
    description: 'Inventory levels are adjusted (manual or system).',
  },
  'product.created': {
    scope: 'products:read',
    firesWhen: 'a product is created',
    description: 'A product is created (UI, API or import).',
  },
  'customer.created': {
    scope: 'customers:read',
    firesWhen: 'a customer is created',
    description: 'A customer is created (manual or first seen from a channel).',
  },
  // Beyond the specification's ten: the platform's own event, so a tenant's tooling learns that
  // a subscription was switched off (ADR 0413). Published by outbound-delivery.
  'webhook_subscription.deactivated': {
    scope: 'webhooks:read',
    firesWhen: 'a webhook subscription is switched off (HTTP 410 or 25 failures in a row)',
    description:
      'A webhook subscription is switched off by the platform: its receiver answered HTTP 410, or 25 deliveries in a row failed.',
  },
} as const;

/** The specification's ten events (the catalog adds the platform's own after them). */
export const SPECIFICATION_WEBHOOK_EVENT_NAMES = [
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
] as const satisfies ReadonlyArray<keyof typeof WEBHOOK_EVENT_CATALOG>;

export type WebhookEventName = keyof typeof WEBHOOK_EVENT_CATALOG;
export const WEBHOOK_EVENT_NAMES = Object.keys(WEBHOOK_EVENT_CATALOG) as WebhookEventName[];

export function isWebhookEventName(name: string): name is WebhookEventName {
  return Object.prototype.hasOwnProperty.call(WEBHOOK_EVENT_CATALOG, name);
}

/** The read scope a subscriber needs for `name`; undefined for a name outside the catalog. */
export function webhookEventScope(name: string): string | undefined {
  return isWebhookEventName(name) ? WEBHOOK_EVENT_CATALOG[name].scope : undefined;
}
