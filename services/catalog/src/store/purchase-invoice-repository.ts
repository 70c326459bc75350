import { escapeRegex, type ScopedFilter } from '@inventory/platform';
import { Schema, type Connection } from 'mongoose';
import type {
  InvoiceQuery,
  InvoiceSnapshot,
  InvoiceSortField,
} from '../domain/purchase-invoice.js';
import { VersionedRepository, type VersionedRow } from './versioned-repository.js';

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

/** `total` sorts by its exact numeric twin, never by the text ("9.5" > "10" as text). */
const SORT_COLUMN: Record<InvoiceSortField | 'id', string> = {
  created_at: 'created_at',
  due_date: 'due_date',
  total: 'total_units',
  id: 'id',
};

/** The tenant's purchase invoices, as the catalog events last described them. */
export class PurchaseInvoiceRepository extends VersionedRepository<InvoiceDocument> {
  constructor(connection: Connection) {
    super(connection.model<InvoiceDocument>('PurchaseInvoice', schema));
  }

  list(tenantId: string, query: InvoiceQuery): Promise<{ rows: InvoiceDocument[]; total: number }> {
    const conditions: ScopedFilter<InvoiceDocument> = {};
    if (query.statuses.length > 0) conditions.status = { $in: query.statuses };
    if (query.search !== '')
      conditions.supplier_invoice_number = { $regex: escapeRegex(query.search), $options: 'i' };
    return this.listLive(tenantId, conditions, query, (field) => SORT_COLUMN[field]);
  }
}
