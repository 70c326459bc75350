import type { Logger } from '@inventory/platform';
import { toInvoiceSnapshot, type InvoiceRecordInput } from '../domain/purchase-invoice.js';
import { isRecordId, versionOf } from '../domain/record-version.js';
import type { PurchaseInvoiceRepository } from '../store/purchase-invoice-repository.js';

export type PurchaseInvoiceChange =
  | { kind: 'snapshot'; record: InvoiceRecordInput | undefined; version: number }
  | { kind: 'deleted'; invoiceId: number; version: number };

/**
 * Applies one purchase-invoice event to the read model: version-checked, deletes leave
 * tombstones, unshowable records are logged and dropped (as for products).
 */
export class ApplyPurchaseInvoiceChange {
  constructor(
    private readonly invoices: PurchaseInvoiceRepository,
    private readonly logger: Logger,
  ) {}

  async execute(
    tenantId: string,
    occurredAt: Date,
    change: PurchaseInvoiceChange,
  ): Promise<boolean> {
    const version = versionOf(change.version, occurredAt);
    if (change.kind === 'deleted') {
      if (!isRecordId(change.invoiceId))
        return this.drop(tenantId, ['purchase_invoice_id is not positive']);
      return this.invoices.remove(tenantId, change.invoiceId, version);
    }
    if (!change.record) return this.drop(tenantId, ['the event has no invoice']);
    const checked = toInvoiceSnapshot(change.record, occurredAt);
    if ('problems' in checked) return this.drop(tenantId, checked.problems);
    return this.invoices.put(tenantId, checked.invoice, version);
  }

  private drop(tenantId: string, problems: string[]): false {
    this.logger.warn({ tenant_id: tenantId, problems }, 'purchase invoice event dropped');
    return false;
  }
}
