import { escapeRegex, tenantFilter } from '@inventory/platform';
import { Schema, type Connection, type FilterQuery, type Model, type SortOrder } from 'mongoose';
import type {
  InvoiceQuery,
  InvoiceSnapshot,
  InvoiceSortField,
} from '../domain/purchase-invoice.js';
import { applyVersioned, type VersionedRow } from './versioned-upsert.js';

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

export class PurchaseInvoiceStore {
  readonly model: Model<InvoiceDocument>;

  constructor(connection: Connection) {
    this.model = connection.model<InvoiceDocument>('PurchaseInvoice', schema);
  }

  put(tenantId: string, invoice: InvoiceSnapshot, version: number): Promise<boolean> {
    return applyVersioned(this.model, tenantId, invoice.id, version, {
      ...invoice,
      deleted: false,
    });
  }

  remove(tenantId: string, id: number, version: number): Promise<boolean> {
    return applyVersioned(this.model, tenantId, id, version, { deleted: true });
  }

  async list(
    tenantId: string,
    query: InvoiceQuery,
  ): Promise<{ rows: InvoiceDocument[]; total: number }> {
    const filter: FilterQuery<InvoiceDocument> = tenantFilter<InvoiceDocument>(tenantId, {
      deleted: false,
    });
    if (query.statuses.length > 0) filter.status = { $in: query.statuses };
    if (query.search !== '')
      filter.supplier_invoice_number = { $regex: escapeRegex(query.search), $options: 'i' };
    const sort: Record<string, SortOrder> = Object.fromEntries(
      query.sort.map((key) => [SORT_COLUMN[key.field], key.descending ? -1 : 1]),
    );
    const [rows, total] = await Promise.all([
      this.model
        .find(filter, { _id: 0 })
        .sort(sort)
        .skip((query.page - 1) * query.perPage)
        .limit(query.perPage)
        .lean<InvoiceDocument[]>()
        .exec(),
      this.model.countDocuments(filter).exec(),
    ]);
    return { rows, total };
  }
}
