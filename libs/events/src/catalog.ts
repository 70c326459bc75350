import {
  ProductCreated,
  ProductDeleted,
  ProductUpdated,
  PurchaseInvoiceCreated,
  PurchaseInvoiceDeleted,
  PurchaseInvoiceUpdated,
} from '@inventory/contracts/events/v1/catalog_records.js';
import { defineEvent, type StreamSpec } from '@inventory/platform';

/**
 * The catalog area's stream (products, purchase invoices, sales channels, sales orders). Catalog
 * and parcel-tracking (its sales-channel consumers) both declare it from here: `ensureStream` is
 * idempotent, so whichever process starts first creates it.
 */
export const CATALOG_STREAM: StreamSpec = { name: 'CATALOG', subjects: ['catalog.>'] };

export const productCreated = defineEvent('catalog.product.created', ProductCreated);
export const productUpdated = defineEvent('catalog.product.updated', ProductUpdated);
export const productDeleted = defineEvent('catalog.product.deleted', ProductDeleted);

export const purchaseInvoiceCreated = defineEvent(
  'catalog.purchase_invoice.created',
  PurchaseInvoiceCreated,
);
export const purchaseInvoiceUpdated = defineEvent(
  'catalog.purchase_invoice.updated',
  PurchaseInvoiceUpdated,
);
export const purchaseInvoiceDeleted = defineEvent(
  'catalog.purchase_invoice.deleted',
  PurchaseInvoiceDeleted,
);

export type {
  ProductCreated,
  ProductDeleted,
  ProductUpdated,
  PurchaseInvoiceCreated,
  PurchaseInvoiceDeleted,
  PurchaseInvoiceUpdated,
};
