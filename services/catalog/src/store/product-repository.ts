import { escapeRegex, type ScopedFilter } from '@inventory/platform';
import { Schema, type Connection } from 'mongoose';
import type { ProductQuery, ProductSnapshot } from '../domain/product.js';
import { VersionedRepository, type VersionedRow } from './versioned-repository.js';

export type ProductDocument = ProductSnapshot & VersionedRow;

const schema = new Schema<ProductDocument>(
  {
    tenant_id: { type: String, required: true },
    id: { type: Number, required: true },
    sku: { type: String, default: '' },
    name: { type: String, default: '' },
    type: { type: String, default: '' },
    barcode: { type: String, default: null },
    price: { type: String, default: '0' },
    created_at: { type: Date, default: () => new Date(0) },
    updated_at: { type: Date, default: () => new Date(0) },
    version: { type: Number, required: true },
    deleted: { type: Boolean, default: false },
  },
  { versionKey: false, collection: 'products' },
);
schema.index({ tenant_id: 1, id: 1 }, { unique: true });
// One index per sort, each led by (tenant_id, deleted): the listed rows of a tenant. The same
// prefix serves the unfiltered count; (tenant_id, deleted, sku) also serves filter[sku].
schema.index({ tenant_id: 1, deleted: 1, created_at: -1, id: -1 });
schema.index({ tenant_id: 1, deleted: 1, updated_at: -1, id: -1 });
schema.index({ tenant_id: 1, deleted: 1, sku: 1, id: 1 });
schema.index({ tenant_id: 1, deleted: 1, name: 1, id: 1 });
schema.index({ tenant_id: 1, deleted: 1, id: 1 });

/** The tenant's products, as the catalog events last described them. */
export class ProductRepository extends VersionedRepository<ProductDocument> {
  constructor(connection: Connection) {
    super(connection.model<ProductDocument>('Product', schema));
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
