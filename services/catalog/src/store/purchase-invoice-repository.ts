import { escapeRegex, type ScopedFilter } from '@inventory/platform';
import type { Connection } from 'mongoose';
import type { InvoiceQuery, InvoiceSortField } from '../domain/purchase-invoice.js';
import { purchaseInvoiceModel, type InvoiceDocument } from './purchase-invoice.js';
import { VersionedRepository } from './versioned-repository.js';

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
    super(purchaseInvoiceModel(connection));
  }

  list(tenantId: string, query: InvoiceQuery): Promise<{ rows: InvoiceDocument[]; total: number }> {
    const conditions: ScopedFilter<InvoiceDocument> = {};
    if (query.statuses.length > 0) conditions.status = { $in: query.statuses };
    if (query.search !== '')
      conditions.supplier_invoice_number = { $regex: escapeRegex(query.search), $options: 'i' };
    return this.listLive(tenantId, conditions, query, (field) => SORT_COLUMN[field]);
  }
}
