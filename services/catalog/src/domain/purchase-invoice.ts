import { parseIsoDay, PURCHASE_INVOICE_SORTS } from '@inventory/rules';
import type { FieldViolation } from '@inventory/platform';
import { parseDecimal } from './decimal.js';
import {
  distinct,
  toPageAndSort,
  type PageAndSort,
  type PageAndSortInput,
  type SortKey,
} from './list-query.js';
import { checkText, isRecordId } from './record-version.js';

/** The gateway documents and checks the same sorts (@inventory/rules). */
const INVOICE_SORTS = PURCHASE_INVOICE_SORTS;
export type InvoiceSortField = (typeof INVOICE_SORTS)[number];
export const DEFAULT_INVOICE_SORT: Array<SortKey<InvoiceSortField>> = [
  { field: 'created_at', descending: true },
];
export const MAX_STATUS_FILTER = 50;

/** A purchase invoice as the read model holds it. */
export interface InvoiceSnapshot {
  id: number;
  supplier_invoice_number: string;
  status: string;
  currency: string;
  /** The decimal string as published. */
  total: string;
  /** `total` in exact 1/10,000 units, for numeric ordering. */
  total_units: number;
  /** YYYY-MM-DD, or null when the invoice has none. */
  due_date: string | null;
  created_at: Date;
}

export interface InvoiceRecordInput {
  purchase_invoice_id: number;
  supplier_invoice_number: string;
  status: string;
  currency: string;
  total: string;
  due_date: string;
  created_at?: Date | undefined;
}

/** A real calendar day written YYYY-MM-DD (02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  return parseIsoDay(text) !== undefined;
}

/** Checks a purchase-invoice event's record; a record that can never be shown is reported, not stored. */
export function toInvoiceSnapshot(
  record: InvoiceRecordInput,
  occurredAt: Date,
): { invoice: InvoiceSnapshot } | { problems: string[] } {
  const problems: string[] = [];
  if (!isRecordId(record.purchase_invoice_id))
    problems.push('purchase_invoice_id is not a positive integer');
  const number = checkText(problems, 'supplier_invoice_number', record.supplier_invoice_number, {
    max: 255,
  });
  const status = checkText(problems, 'status', record.status, { required: true, max: 64 });
  const currency = record.currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) problems.push('currency is not an ISO 4217 code');
  const total = parseDecimal(record.total);
  if (!total) problems.push('total is not a decimal with at most 11 digits and 4 decimals');
  const dueDate = record.due_date.trim();
  if (dueDate !== '' && !isCalendarDate(dueDate)) problems.push('due_date is not YYYY-MM-DD');
  if (problems.length > 0 || !total) return { problems };
  return {
    invoice: {
      id: record.purchase_invoice_id,
      supplier_invoice_number: number,
      status,
      currency,
      total: total.text,
      total_units: total.units,
      due_date: dueDate === '' ? null : dueDate,
      created_at: record.created_at ?? occurredAt,
    },
  };
}

export interface InvoiceQuery extends PageAndSort<InvoiceSortField> {
  statuses: string[];
  search: string;
}

export interface InvoiceQueryInput extends PageAndSortInput {
  statuses: string[];
  search: string;
}

/** Validates a ListPurchaseInvoices request; returns the query or the fields at fault. */
export function toInvoiceQuery(
  input: InvoiceQueryInput,
): { query: InvoiceQuery } | { violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const paging = toPageAndSort(input, INVOICE_SORTS, DEFAULT_INVOICE_SORT, violations);
  const statuses = distinct(input.statuses);
  if (statuses.length > MAX_STATUS_FILTER || statuses.some((status) => status.length > 64))
    violations.push({
      field: 'statuses',
      description: `At most ${MAX_STATUS_FILTER} statuses of at most 64 characters.`,
    });
  const search = input.search.trim();
  if (search.length > 255)
    violations.push({ field: 'search', description: 'The search is at most 255 characters.' });
  if (violations.length > 0) return { violations };
  return { query: { ...paging, statuses, search } };
}
