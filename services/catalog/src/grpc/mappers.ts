import type {
  ListProductsResponse,
  ListPurchaseInvoicesResponse,
  Product,
  PurchaseInvoice,
} from '@inventory/contracts/catalog/v1/catalog.js';
import type { ProductDocument } from '../store/product.js';
import type { InvoiceDocument } from '../store/purchase-invoice.js';
import type { ListProducts } from '../use-cases/list-products.js';
import type { ListPurchaseInvoices } from '../use-cases/list-purchase-invoices.js';

type PageOf<UseCase extends { execute(...args: never[]): Promise<unknown> }> = Awaited<
  ReturnType<UseCase['execute']>
>;

export function presentProductPage({
  rows,
  page,
  unfilteredTotal,
}: PageOf<ListProducts>): ListProductsResponse {
  return {
    products: rows.map(toProductMessage),
    page_info: page,
    unfiltered_total: unfilteredTotal,
  };
}

export function presentInvoicePage({
  rows,
  page,
}: PageOf<ListPurchaseInvoices>): ListPurchaseInvoicesResponse {
  return { invoices: rows.map(toInvoiceMessage), page_info: page };
}

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
