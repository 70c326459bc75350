import { toProductQuery, type ProductQuery, type ProductQueryInput } from '../domain/product.js';
import type { ProductDocument } from '../store/product.js';
import type { ProductRepository } from '../store/product-repository.js';
import { ListPage } from './list-page.js';

/** One page of a tenant's products, with the count before filters. */
export class ListProducts extends ListPage<
  ProductQueryInput,
  ProductQuery,
  { rows: ProductDocument[]; total: number; unfilteredTotal: number }
> {
  constructor(products: ProductRepository) {
    super({ toQuery: toProductQuery, read: (tenantId, query) => products.list(tenantId, query) });
  }
}
