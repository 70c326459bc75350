import type { Product, PurchaseInvoice } from '@inventory/contracts/catalog/v1/catalog.js';
import type { ProductDocument } from '../store/product-repository.js';
import type { InvoiceDocument } from '../store/purchase-invoice-repository.js';

export function toProductMessage(row: ProductDocument): Product {
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    type: row.type,
    barcode: row.barcode ?? undefined,
    price: row.price,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toInvoiceMessage(row: InvoiceDocument): PurchaseInvoice {
  return {
    id: row.id,
    supplier_invoice_number: row.supplier_invoice_number,
    status: row.status,
    currency: row.currency,
    total: row.total,
    due_date: row.due_date ?? undefined,
    created_at: row.created_at,
  };
}
