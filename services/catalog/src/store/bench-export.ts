/**
 * For bench/catalog only (the `./bench` export): the read-model stores, with the same schemas and
 * indexes as the service, and the list use cases.
 */
export { ProductStore, type ProductDocument } from './product-store.js';
export { PurchaseInvoiceStore, type InvoiceDocument } from './purchase-invoice-store.js';
export { ListProducts } from '../use-cases/list-products.js';
export { ListPurchaseInvoices } from '../use-cases/list-purchase-invoices.js';
