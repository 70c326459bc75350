import { validationFailed } from '@inventory/platform';
import { pageInfo, type PageInfo } from '../domain/list-query.js';
import { toProductQuery, type ProductQueryInput } from '../domain/product.js';
import type { ProductDocument, ProductRepository } from '../store/product-repository.js';

/** One page of a tenant's products, with the count before filters. */
export class ListProducts {
  constructor(private readonly products: ProductRepository) {}

  async execute(
    tenantId: string,
    input: ProductQueryInput,
  ): Promise<{ rows: ProductDocument[]; page: PageInfo; unfilteredTotal: number }> {
    const result = toProductQuery(input);
    if ('violations' in result) throw validationFailed(result.violations);
    const { query } = result;
    const { rows, total, unfilteredTotal } = await this.products.list(tenantId, query);
    return { rows, page: pageInfo(query.page, query.perPage, total, rows.length), unfilteredTotal };
  }
}
