import { describe, expect, it } from 'vitest';
import { isCalendarDate, toInvoiceQuery, toInvoiceSnapshot } from './purchase-invoice.js';

const at = new Date(Date.UTC(2026, 0, 1));
const record = {
  purchase_invoice_id: 3,
  supplier_invoice_number: 'INV-3',
  status: 'open',
  currency: 'usd',
  total: '1250.50',
  due_date: '2026-02-28',
};

describe('toInvoiceSnapshot', () => {
  it('keeps total as text with its exact units, upper-cases the currency', () => {
    expect(toInvoiceSnapshot(record, at)).toEqual({
      invoice: {
        id: 3,
        supplier_invoice_number: 'INV-3',
        status: 'open',
        currency: 'USD',
        total: '1250.50',
        total_units: 12_505_000,
        due_date: '2026-02-28',
        created_at: at,
      },
    });
    expect(toInvoiceSnapshot({ ...record, due_date: '' }, at)).toMatchObject({
      invoice: { due_date: null },
    });
  });

  it('reports every problem of a record that can never be shown', () => {
    expect(
      toInvoiceSnapshot(
        { ...record, status: ' ', currency: 'US', total: '12,5', due_date: '2026-02-30' },
        at,
      ),
    ).toEqual({
      problems: [
        'status is empty',
        'currency is not an ISO 4217 code',
        'total is not a decimal with at most 11 digits and 4 decimals',
        'due_date is not YYYY-MM-DD',
      ],
    });
  });

  it('knows calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-1-01')).toBe(false);
  });
});

describe('toInvoiceQuery', () => {
  it('defaults to -created_at, -id and allows only created_at, due_date, total', () => {
    expect(toInvoiceQuery({ statuses: [' paid', 'paid'], search: ' x ', sort: [] })).toEqual({
      query: {
        statuses: ['paid'],
        search: 'x',
        sort: [
          { field: 'created_at', descending: true },
          { field: 'id', descending: true },
        ],
        page: 1,
        perPage: 10,
      },
    });
    const bad = toInvoiceQuery({
      statuses: [],
      search: '',
      sort: [{ field: 'id', descending: false }],
    });
    expect('violations' in bad && bad.violations.map((v) => v.field)).toEqual(['sort']);
  });
});
