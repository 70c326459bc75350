import { validationFailed } from '@inventory/platform';
import { pageInfo, type PageInfo } from '../domain/list-query.js';
import { toInvoiceQuery, type InvoiceQueryInput } from '../domain/purchase-invoice.js';
import type {
  InvoiceDocument,
  PurchaseInvoiceRepository,
} from '../store/purchase-invoice-repository.js';

/** One page of a tenant's purchase invoices. */
export class ListPurchaseInvoices {
  constructor(private readonly invoices: PurchaseInvoiceRepository) {}

  async execute(
    tenantId: string,
    input: InvoiceQueryInput,
  ): Promise<{ rows: InvoiceDocument[]; page: PageInfo }> {
    const result = toInvoiceQuery(input);
    if ('violations' in result) throw validationFailed(result.violations);
    const { query } = result;
    const { rows, total } = await this.invoices.list(tenantId, query);
    return { rows, page: pageInfo(query.page, query.perPage, total, rows.length) };
  }
}
