// No imports: the web app bundles this file for the browser (`@inventory/events/browser`).

/**
 * A JSON Schema as plain data. Every schema here uses only keywords that draft-07 (AsyncAPI's
 * default schema format) and 2020-12 (what the API states) read the same way.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

const id = (what: string) => ({ type: 'integer', minimum: 1, description: `The ${what}'s id` });
const text = (description: string) => ({ type: 'string', description });
const optionalText = (description: string) => ({ type: ['string', 'null'], description });
const optionalId = (what: string) => ({
  type: ['integer', 'null'],
  minimum: 1,
  description: `The ${what}'s id, when known`,
});
/** Money and quantities travel as decimal strings, so no reader rounds them (ADR 0400). */
const decimal = (description: string) => ({
  type: 'string',
  pattern: '^-?[0-9]+(\\.[0-9]+)?$',
  description,
});
const dateTime = (description: string) => ({ type: 'string', format: 'date-time', description });

/**
 * The key outbound-delivery adds to every catalog delivery's `data` (ADR 0414): a number that
 * increases with each event of the tenant, so of each resource too (it is the event's position
 * in its stream: DOMAIN, or CATALOG for `product.created`). Reserved: a producer's own value under this key is replaced.
 */
export const RESOURCE_SEQUENCE_FIELD = 'resource_sequence';

const resourceSequence = {
  type: 'integer',
  minimum: 1,
  description:
    'Increases with every event of a resource (not by one): of two deliveries about the same resource, the higher number is the newer event. The same on every delivery and attempt of one event',
};

/**
 * The object schema of one event's `data`. The producing areas own the shapes (the specification
 * leaves them open), so only the resource id (and the sequence added on delivery) is required; the fields named here are what a
 * receiver may rely on when present, and further fields may appear.
 */
function dataSchema(
  title: string,
  properties: Record<string, JsonSchema>,
  example: Record<string, unknown>,
): JsonSchema {
  return {
    title,
    type: 'object',
    required: ['id', RESOURCE_SEQUENCE_FIELD],
    properties: { ...properties, [RESOURCE_SEQUENCE_FIELD]: resourceSequence },
    additionalProperties: true,
    examples: [{ ...example, [RESOURCE_SEQUENCE_FIELD]: 1042 }],
  };
}

const salesOrder = {
  id: id('sales order'),
  number: text('The order number shown to people, e.g. SO-1001'),
  sales_channel_id: optionalId('sales channel (null for a manual order)'),
  customer_id: optionalId('customer'),
  currency: text('ISO 4217 code'),
  total: decimal('The order total in its currency'),
};
const salesOrderLines = {
  type: 'array',
  description: 'The ordered lines',
  items: {
    type: 'object',
    required: ['sku', 'quantity'],
    properties: { sku: text('The product SKU'), quantity: decimal('Units ordered') },
    additionalProperties: true,
  },
};
const purchaseOrder = {
  id: id('purchase order'),
  number: text('The purchase order number, e.g. PO-2001'),
  supplier_id: optionalId('supplier'),
  warehouse_id: optionalId('receiving warehouse'),
};

/** The JSON Schema of each catalog event's `data`, with one example each. */
export const WEBHOOK_EVENT_DATA_SCHEMAS = {
  'sales_order.created': dataSchema(
    'sales_order.created data',
    { ...salesOrder, lines: salesOrderLines },
    {
      id: 1001,
      number: 'SO-1001',
      sales_channel_id: 3,
      customer_id: 77,
      currency: 'EUR',
      total: '149.90',
      lines: [{ sku: 'ACME-42', quantity: '2' }],
    },
  ),
  'sales_order.shipped': dataSchema(
    'sales_order.shipped data',
    { ...salesOrder, shipped_at: dateTime('When the last line shipped') },
    { id: 1001, number: 'SO-1001', shipped_at: '2026-03-04T05:06:07.000Z' },
  ),
  'sales_order.cancelled': dataSchema(
    'sales_order.cancelled data',
    {
      ...salesOrder,
      cancelled_by: {
        type: 'string',
        enum: ['manual', 'channel_sync'],
        description: 'A person, or the sales channel sync',
      },
      reason: optionalText('Why, when given'),
    },
    { id: 1001, number: 'SO-1001', cancelled_by: 'manual', reason: 'customer request' },
  ),
  'purchase_order.created': dataSchema('purchase_order.created data', purchaseOrder, {
    id: 2001,
    number: 'PO-2001',
    supplier_id: 12,
    warehouse_id: 3,
  }),
  'purchase_order.approved': dataSchema(
    'purchase_order.approved data',
    { ...purchaseOrder, approved_by: optionalId('approving user') },
    { id: 2001, number: 'PO-2001', approved_by: 5 },
  ),
  'purchase_order.submitted': dataSchema(
    'purchase_order.submitted data',
    { ...purchaseOrder, submitted_at: dateTime('When it was sent to the supplier') },
    { id: 2001, number: 'PO-2001', submitted_at: '2026-03-04T05:06:07.000Z' },
  ),
  'purchase_order.received': dataSchema(
    'purchase_order.received data',
    {
      ...purchaseOrder,
      lines: {
        type: 'array',
        description: 'What this receipt brought in',
        items: {
          type: 'object',
          required: ['sku', 'quantity_received'],
          properties: {
            sku: text('The product SKU'),
            quantity_received: decimal('Units received'),
          },
          additionalProperties: true,
        },
      },
    },
    { id: 2001, warehouse_id: 3, lines: [{ sku: 'ACME-42', quantity_received: '10' }] },
  ),
  'inventory.adjusted': dataSchema(
    'inventory.adjusted data',
    {
      id: id('adjustment'),
      product_id: optionalId('product'),
      sku: text('The product SKU'),
      warehouse_id: optionalId('warehouse'),
      quantity_before: decimal('On hand before the adjustment'),
      quantity_after: decimal('On hand after the adjustment'),
      source: {
        type: 'string',
        enum: ['manual', 'system'],
        description: 'A person, or the system (a count, a sync)',
      },
    },
    {
      id: 3001,
      product_id: 42,
      sku: 'ACME-42',
      warehouse_id: 3,
      quantity_before: '12',
      quantity_after: '9',
      source: 'manual',
    },
  ),
  'product.created': dataSchema(
    'product.created data',
    {
      id: id('product'),
      sku: text('The product SKU'),
      name: text('The product name'),
      created_via: {
        type: 'string',
        enum: ['ui', 'api', 'import'],
        description: 'Where it was created',
      },
    },
    { id: 42, sku: 'ACME-42', name: 'Anvil', created_via: 'api' },
  ),
  'customer.created': dataSchema(
    'customer.created data',
    {
      id: id('customer'),
      name: text('The customer name'),
      email: optionalText('Contact address, when known'),
      sales_channel_id: optionalId('sales channel it was first seen from (null when manual)'),
    },
    { id: 77, name: 'Wile E. Coyote', email: 'wile@example.com', sales_channel_id: null },
  ),
  'webhook_subscription.deactivated': dataSchema(
    'webhook_subscription.deactivated data',
    {
      id: id('webhook subscription'),
      url: text('Where its deliveries went'),
      description: optionalText('Its description'),
      reason: {
        type: 'string',
        enum: ['gone', 'consecutive_failures'],
        description: 'The receiver answered HTTP 410 (gone), or 25 deliveries in a row failed',
      },
      consecutive_failures: { type: 'integer', minimum: 0, description: 'Failed in a row' },
      deactivated_at: dateTime('When it was switched off'),
      last_failures: {
        type: 'array',
        description: 'Its latest failed attempts, newest first (at most 3)',
        items: {
          type: 'object',
          required: ['delivery_id', 'event', 'attempted_at', 'response_status', 'error'],
          properties: {
            delivery_id: { type: 'string', format: 'uuid' },
            event: text('The delivery event'),
            attempted_at: dateTime('When the attempt was made'),
            response_status: {
              type: ['integer', 'null'],
              description: 'The HTTP status, null when no response arrived',
            },
            error: optionalText('What went wrong without a response (timeout, refused…)'),
          },
          additionalProperties: false,
        },
      },
    },
    {
      id: 12,
      url: 'https://erp.example.com/hooks',
      description: 'ERP sync',
      reason: 'gone',
      consecutive_failures: 0,
      deactivated_at: '2026-03-04T05:06:07.000Z',
      last_failures: [
        {
          delivery_id: '5f0c6a9e-2d7b-4c1e-9a51-0d1f1b0e7c11',
          event: 'product.created',
          attempted_at: '2026-03-04T05:06:07.000Z',
          response_status: 410,
          error: null,
        },
      ],
    },
  ),
} as const satisfies Record<string, JsonSchema>;

/**
 * The delivery body every event shares (spec: the envelope), with `data` left to each event.
 * Exactly these four fields, in this order.
 */
export function webhookEnvelopeSchema(event: string, data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['event', 'delivery_id', 'occurred_at', 'data'],
    properties: {
      event: { type: 'string', const: event, description: 'The event name' },
      delivery_id: {
        type: 'string',
        format: 'uuid',
        description: 'The delivery id; the same on every attempt (de-duplicate on it)',
      },
      occurred_at: dateTime('When the event happened, ISO 8601 UTC'),
      data,
    },
    additionalProperties: false,
  };
}
