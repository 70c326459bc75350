import { escapeRegex, tenantFilter } from '@inventory/platform';
import { Schema, type Connection, type FilterQuery, type Model, type SortOrder } from 'mongoose';
import type { ProductQuery, ProductSnapshot } from '../domain/product.js';
import { applyVersioned, type VersionedRow } from './versioned-upsert.js';

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

export class ProductStore {
  readonly model: Model<ProductDocument>;

  constructor(connection: Connection) {
    this.model = connection.model<ProductDocument>('Product', schema);
  }

  /** Stores the snapshot when `version` is newer than what is held; returns whether it did. */
  put(tenantId: string, product: ProductSnapshot, version: number): Promise<boolean> {
    return applyVersioned(this.model, tenantId, product.id, version, {
      ...product,
      deleted: false,
    });
  }

  /** Leaves a tombstone at `version` (also for an id never seen, so its late create is ignored). */
  remove(tenantId: string, id: number, version: number): Promise<boolean> {
    return applyVersioned(this.model, tenantId, id, version, { deleted: true });
  }

  async list(
    tenantId: string,
    query: ProductQuery,
  ): Promise<{ rows: ProductDocument[]; total: number; unfilteredTotal: number }> {
    const live = tenantFilter<ProductDocument>(tenantId, { deleted: false });
    const filter: FilterQuery<ProductDocument> = { ...live };
    if (query.skus.length > 0) filter.sku = { $in: query.skus };
    if (query.search !== '') {
      // User text is a literal substring: regex characters are escaped, never interpreted.
      const pattern = { $regex: escapeRegex(query.search), $options: 'i' };
      filter.$or = [{ sku: pattern }, { name: pattern }];
    }
    const filtered = query.skus.length > 0 || query.search !== '';
    const sort: Record<string, SortOrder> = Object.fromEntries(
      query.sort.map((key) => [key.field, key.descending ? -1 : 1]),
    );
    const [rows, total, unfilteredTotal] = await Promise.all([
      this.model
        .find(filter, { _id: 0 })
        .sort(sort)
        .skip((query.page - 1) * query.perPage)
        .limit(query.perPage)
        .lean<ProductDocument[]>()
        .exec(),
      this.model.countDocuments(filter).exec(),
      filtered ? this.model.countDocuments(live).exec() : undefined,
    ]);
    return { rows, total, unfilteredTotal: unfilteredTotal ?? total };
  }
}
