import type { Model } from 'mongoose';
import type { ProductDocument } from '../src/store/product.js';
import { ProductRepository } from '../src/store/product-repository.js';
import type { InvoiceDocument } from '../src/store/purchase-invoice.js';
import { PurchaseInvoiceRepository } from '../src/store/purchase-invoice-repository.js';

/**
 * For bench/catalog only (the `./bench` export): the read-model repositories, with the same
 * schemas and indexes as the service, and the list use cases. The bench fills the collections
 * in bulk and times raw queries against them, so here, and only here, the model is public.
 */
export class ProductStore extends ProductRepository {
  declare readonly model: Model<ProductDocument>;
}

export class PurchaseInvoiceStore extends PurchaseInvoiceRepository {
  declare readonly model: Model<InvoiceDocument>;
}

export type { InvoiceDocument, ProductDocument };
export { ListProducts } from '../src/use-cases/list-products.js';
export { ListPurchaseInvoices } from '../src/use-cases/list-purchase-invoices.js';
