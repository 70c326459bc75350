/** The read-model stores, exported for bench/catalog (same schemas and indexes as the service). */
export { ProductStore, type ProductDocument } from './product-store.js';
export { PurchaseInvoiceStore, type InvoiceDocument } from './purchase-invoice-store.js';
export { ListProducts } from '../use-cases/list-products.js';
export { ListPurchaseInvoices } from '../use-cases/list-purchase-invoices.js';
