import { Schema, type Connection, type Model } from 'mongoose';
import type { ProductSnapshot } from '../domain/product.js';
import type { VersionedRow } from './versioned-repository.js';

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

/** The `products` collection's one model on a connection (kept private by `ProductRepository`). */
export function productModel(connection: Connection): Model<ProductDocument> {
  return connection.model<ProductDocument>('Product', schema);
}
