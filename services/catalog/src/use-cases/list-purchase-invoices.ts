import {
  toInvoiceQuery,
  type InvoiceQuery,
  type InvoiceQueryInput,
} from '../domain/purchase-invoice.js';
import type { InvoiceDocument } from '../store/purchase-invoice.js';
import type { PurchaseInvoiceRepository } from '../store/purchase-invoice-repository.js';
import { ListPage } from './list-page.js';

/** One page of a tenant's purchase invoices. */
export class ListPurchaseInvoices extends ListPage<
  InvoiceQueryInput,
  InvoiceQuery,
  { rows: InvoiceDocument[]; total: number }
> {
  constructor(invoices: PurchaseInvoiceRepository) {
    super({ toQuery: toInvoiceQuery, read: (tenantId, query) => invoices.list(tenantId, query) });
  }
}
