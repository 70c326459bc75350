import { toProductSnapshot, type ProductRecordInput } from '../domain/product.js';
import { toInvoiceSnapshot, type InvoiceRecordInput } from '../domain/purchase-invoice.js';
import type { ProductDocument } from '../store/product.js';
import type { InvoiceDocument } from '../store/purchase-invoice.js';
import type { RecordKind } from './apply-record-change.js';

export const PRODUCT_RECORDS: RecordKind<ProductRecordInput, ProductDocument> = {
  name: 'product',
  idField: 'product_id',
  noun: 'product',
  toSnapshot(record, occurredAt) {
    const checked = toProductSnapshot(record, occurredAt);
    return 'problems' in checked ? checked : { snapshot: checked.product };
  },
};

export const PURCHASE_INVOICE_RECORDS: RecordKind<InvoiceRecordInput, InvoiceDocument> = {
  name: 'purchase invoice',
  idField: 'purchase_invoice_id',
  noun: 'invoice',
  toSnapshot(record, occurredAt) {
    const checked = toInvoiceSnapshot(record, occurredAt);
    return 'problems' in checked ? checked : { snapshot: checked.invoice };
  },
};
