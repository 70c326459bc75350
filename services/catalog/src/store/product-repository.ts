import { escapeRegex, type ScopedFilter } from '@inventory/platform';
import type { Connection } from 'mongoose';
import type { ProductQuery } from '../domain/product.js';
import { productModel, type ProductDocument } from './product.js';
import { VersionedRepository } from './versioned-repository.js';

/** The tenant's products, as the catalog events last described them. */
export class ProductRepository extends VersionedRepository<ProductDocument> {
  constructor(connection: Connection) {
    super(productModel(connection));
  }

  async list(
    tenantId: string,
    query: ProductQuery,
  ): Promise<{ rows: ProductDocument[]; total: number; unfilteredTotal: number }> {
    const conditions: ScopedFilter<ProductDocument> = {};
    if (query.skus.length > 0) conditions.sku = { $in: query.skus };
    if (query.search !== '') {
      // User text is a literal substring: regex characters are escaped, never interpreted.
      const pattern = { $regex: escapeRegex(query.search), $options: 'i' };
      conditions.$or = [{ sku: pattern }, { name: pattern }];
    }
    const filtered = query.skus.length > 0 || query.search !== '';
    const [{ rows, total }, unfilteredTotal] = await Promise.all([
      this.listLive(tenantId, conditions, query),
      filtered ? this.countLive(tenantId) : undefined,
    ]);
    return { rows, total, unfilteredTotal: unfilteredTotal ?? total };
  }
}
