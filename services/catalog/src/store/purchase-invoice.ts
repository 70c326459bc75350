import { Schema, type Connection, type Model } from 'mongoose';
import type { InvoiceSnapshot } from '../domain/purchase-invoice.js';
import type { VersionedRow } from './versioned-repository.js';

export type InvoiceDocument = InvoiceSnapshot & VersionedRow;

const schema = new Schema<InvoiceDocument>(
  {
    tenant_id: { type: String, required: true },
    id: { type: Number, required: true },
    supplier_invoice_number: { type: String, default: '' },
    status: { type: String, default: '' },
    currency: { type: String, default: '' },
    total: { type: String, default: '0' },
    total_units: { type: Number, default: 0 },
    due_date: { type: String, default: null },
    created_at: { type: Date, default: () => new Date(0) },
    version: { type: Number, required: true },
    deleted: { type: Boolean, default: false },
  },
  { versionKey: false, collection: 'purchase_invoices' },
);
schema.index({ tenant_id: 1, id: 1 }, { unique: true });
// One index per sort, led by (tenant_id, deleted), which also serves the count; the status
// filter has its own under the default sort.
schema.index({ tenant_id: 1, deleted: 1, created_at: -1, id: -1 });
schema.index({ tenant_id: 1, deleted: 1, due_date: 1, id: 1 });
schema.index({ tenant_id: 1, deleted: 1, total_units: 1, id: 1 });
schema.index({ tenant_id: 1, deleted: 1, status: 1, created_at: -1, id: -1 });

/** The `purchase_invoices` collection's one model (kept private by `PurchaseInvoiceRepository`). */
export function purchaseInvoiceModel(connection: Connection): Model<InvoiceDocument> {
  return connection.model<InvoiceDocument>('PurchaseInvoice', schema);
}
