import type { Product, PurchaseInvoice } from '@inventory/contracts/catalog/v1/catalog.js';
import { isoOrNull } from '../../http/timestamps.js';

/** A product item; `price` stays the decimal string the catalog holds. */
export function presentProduct(product: Product) {
  return {
    id: product.id,
    sku: product.sku,
    name: product.name,
    type: product.type,
    barcode: product.barcode ?? null,
    price: product.price,
    created_at: isoOrNull(product.created_at),
    updated_at: isoOrNull(product.updated_at),
  };
}

/** A purchase-invoice item; `total` a decimal string (never a float), `due_date` a date or null. */
export function presentPurchaseInvoice(invoice: PurchaseInvoice) {
  return {
    id: invoice.id,
    supplier_invoice_number: invoice.supplier_invoice_number,
    status: invoice.status,
    currency: invoice.currency,
    total: invoice.total,
    due_date: invoice.due_date ?? null,
    created_at: isoOrNull(invoice.created_at),
  };
}
