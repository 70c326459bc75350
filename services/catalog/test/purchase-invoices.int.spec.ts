import { status as GrpcStatus } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  eventually,
  failureOf,
  invoice,
  page,
  publishers,
  startHarness,
  type Harness,
} from './harness.js';

let h: Harness;
const tenant = `invoices-${Date.now()}`;
const other = `${tenant}-other`;

type Request = Parameters<Harness['client']['call']['listPurchaseInvoices']>[0];
const list = (request: Partial<Request> = {}, tenantId = tenant) =>
  as(tenantId, () =>
    h.client.call.listPurchaseInvoices({ statuses: [], search: '', sort: [], ...request }),
  );
const ids = async (request: Partial<Request>) =>
  (await list(request)).invoices.map((row) => row.id);

// Totals whose text order, float order and numeric order differ.
const TOTALS = ['9.5', '10', '100.01', '-3', '0.0001', '1000000', '99.99', '100.1'];
const STATUSES = ['open', 'paid', 'draft', 'open', 'void', 'paid', 'open', 'draft'];

beforeAll(async () => {
  h = await startHarness();
  const bus = publishers(h.service);
  for (let id = 1; id <= TOTALS.length; id++) {
    await bus.invoiceCreated(
      tenant,
      invoice(id, {
        total: TOTALS[id - 1]!,
        status: STATUSES[id - 1]!,
        supplier_invoice_number: id % 2 === 0 ? `ACME-${id}` : `INV-${id}`,
        due_date: id === 4 ? '' : `2026-0${(id % 3) + 1}-1${id}`,
      }),
    );
  }
  await bus.invoiceCreated(other, invoice(1, { supplier_invoice_number: 'OTHER' }));
  await eventually(async () => expect((await list()).page_info!.total).toBe(TOTALS.length));
  await eventually(async () => expect((await list({}, other)).page_info!.total).toBe(1));
}, 60_000);
afterAll(() => h?.stop());

describe('ListPurchaseInvoices', () => {
  it('returns every item field; total is the decimal string, due_date a date or absent', async () => {
    const rows = (await list({ sort: [{ field: 'created_at', descending: false }] })).invoices;
    expect(rows[1]).toEqual({
      id: 2,
      supplier_invoice_number: 'ACME-2',
      status: 'paid',
      currency: 'USD',
      total: '10',
      due_date: '2026-03-12',
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, 2)),
    });
    expect(rows[3]!.due_date).toBeUndefined();
    expect(rows.map((row) => row.total)).toEqual(TOTALS);
  });

  it('defaults to -created_at and pages', async () => {
    const first = await list({ page: page(1, 3) });
    expect(first.invoices.map((row) => row.id)).toEqual([8, 7, 6]);
    expect(first.page_info).toEqual({
      current_page: 1,
      last_page: 3,
      per_page: 3,
      total: 8,
      from: 1,
      to: 3,
    });
    expect((await list({ page: page(3, 3) })).page_info).toMatchObject({ from: 7, to: 8 });
  });

  it('sorts total numerically, never as text or float', async () => {
    expect(await ids({ sort: [{ field: 'total', descending: false }] })).toEqual([
      4, 5, 1, 2, 7, 3, 8, 6,
    ]);
    expect(await ids({ sort: [{ field: 'total', descending: true }] })).toEqual([
      6, 8, 3, 7, 2, 1, 5, 4,
    ]);
  });

  it('sorts by due_date (no due date first ascending) and created_at both ways', async () => {
    const due = (await list({ sort: [{ field: 'due_date', descending: false }] })).invoices;
    expect(due[0]!.id).toBe(4);
    const dates = due.slice(1).map((row) => row.due_date!);
    expect(dates).toEqual([...dates].sort());
    expect(await ids({ sort: [{ field: 'due_date', descending: true }] })).toEqual(
      due.map((row) => row.id).reverse(),
    );
    expect(await ids({ sort: [{ field: 'created_at', descending: false }] })).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });

  it('filters by a comma list of statuses and by supplier invoice number substring', async () => {
    expect(await ids({ statuses: ['paid', 'void'] })).toEqual([6, 5, 2]);
    expect(await ids({ statuses: ['nope'] })).toEqual([]);
    expect(await ids({ search: 'acme' })).toEqual([8, 6, 4, 2]);
    expect(await ids({ search: 'acme', statuses: ['open'] })).toEqual([4]);
    expect(await ids({ search: 'INV-[' })).toEqual([]);
  });

  it('rejects sorts outside created_at, due_date, total', async () => {
    for (const field of ['id', 'status', 'supplier_invoice_number', '']) {
      const failure = await failureOf(list({ sort: [{ field, descending: false }] }));
      expect(failure.code).toBe(GrpcStatus.INVALID_ARGUMENT);
      expect(failure.fieldViolations.map((violation) => violation.field)).toEqual(['sort']);
    }
  });

  it("never shows another tenant's invoices", async () => {
    expect(await ids({ search: 'OTHER' })).toEqual([]);
    expect((await list({}, other)).invoices.map((row) => row.supplier_invoice_number)).toEqual([
      'OTHER',
    ]);
  });
});
