/**
 * The catalog listings at 100,000 rows: `ListProducts` / `ListPurchaseInvoices` (page query and
 * index-backed counts, the service's own stores, schemas and indexes) on a tenant with `rows`
 * products and invoices, as a ratio to the same call on a tenant with 1,000 rows measured in the
 * same run. CPU time per call (client and the in-process embedded MongoDB together) and wall
 * time, medians of repeated calls.
 *
 * Run: npx tsx --conditions=development bench/catalog/listings.ts [rows=100000]
 */
import mongoose from 'mongoose';
import {
  ListProducts,
  ListPurchaseInvoices,
  ProductStore,
  PurchaseInvoiceStore,
  type InvoiceDocument,
  type ProductDocument,
} from '@inventory/catalog/bench';
import { startEmbeddedMongo } from '@inventory/mongo-embedded';

const ROWS = Number(process.argv[2] ?? 100_000);
const BASELINE_ROWS = 1_000;
const REPEATS = 15;
const STATUSES = ['draft', 'open', 'paid', 'void'];

function product(tenant: string, id: number): ProductDocument {
  return {
    tenant_id: tenant,
    id,
    sku: `SKU-${String(id).padStart(7, '0')}`,
    name: `Product ${(id * 7919) % 1_000_003}`,
    type: 'standard',
    barcode: null,
    price: `${id % 1000}.99`,
    created_at: new Date(Date.UTC(2024, 0, 1) + id * 60_000),
    updated_at: new Date(Date.UTC(2025, 0, 1) + ((id * 31) % ROWS) * 60_000),
    version: 1,
    deleted: false,
  };
}

function invoice(tenant: string, id: number): InvoiceDocument {
  const units = ((id * 104_729) % 10_000_000) * 100;
  return {
    tenant_id: tenant,
    id,
    supplier_invoice_number: `INV-${id}`,
    status: STATUSES[id % STATUSES.length]!,
    currency: 'USD',
    total: (units / 10_000).toFixed(2),
    total_units: units,
    due_date: new Date(Date.UTC(2025, 0, 1) + (id % 700) * 86_400_000).toISOString().slice(0, 10),
    created_at: new Date(Date.UTC(2024, 0, 1) + id * 60_000),
    version: 1,
    deleted: false,
  };
}

async function fill<T>(model: mongoose.Model<T>, rows: number, make: (id: number) => T) {
  for (let done = 0; done < rows; done += 5_000)
    await model.insertMany(
      Array.from({ length: Math.min(5_000, rows - done) }, (_, i) => make(done + i + 1)),
      { lean: true },
    );
}

/** Median CPU µs (process: client + embedded server) and wall ms of one call. */
async function measure(run: () => Promise<unknown>) {
  await run();
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const startCpu = process.cpuUsage();
    const start = performance.now();
    await run();
    wall.push(performance.now() - start);
    const used = process.cpuUsage(startCpu);
    cpu.push(used.user + used.system);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { cpu_us: median(cpu), wall_ms: Math.round(median(wall) * 100) / 100 };
}

const server = await startEmbeddedMongo();
const connection = await mongoose.createConnection(`${server.url}/bench_catalog`).asPromise();
const products = new ProductStore(connection);
const invoices = new PurchaseInvoiceStore(connection);
await products.model.init();
await invoices.model.init();
await fill(products.model, ROWS, (id) => product('big', id));
await fill(products.model, BASELINE_ROWS, (id) => product('small', id));
await fill(invoices.model, ROWS, (id) => invoice('big', id));
await fill(invoices.model, BASELINE_ROWS, (id) => invoice('small', id));

const listProducts = new ListProducts(products);
const listInvoices = new ListPurchaseInvoices(invoices);
const sort = (field: string, descending = false) => [{ field, descending }];
const cases: Record<string, (tenant: string) => Promise<unknown>> = {
  // The two halves of the default listing, to show which one grows with the rows.
  products_find_page_1_only: (tenant) =>
    products.model
      .find({ tenant_id: tenant, deleted: false })
      .sort({ created_at: -1, id: -1 })
      .limit(10)
      .lean(),
  products_count_only: (tenant) =>
    products.model.countDocuments({ tenant_id: tenant, deleted: false }),
  products_default_page_1: (tenant) =>
    listProducts.execute(tenant, { search: '', skus: [], sort: [] }),
  products_by_name_page_1: (tenant) =>
    listProducts.execute(tenant, { search: '', skus: [], sort: sort('name') }),
  products_by_sku_page_50: (tenant) =>
    listProducts.execute(tenant, {
      search: '',
      skus: [],
      sort: sort('sku'),
      page: { page: 50, per_page: 10 },
    }),
  products_three_skus: (tenant) =>
    listProducts.execute(tenant, {
      search: '',
      skus: ['SKU-0000007', 'SKU-0000500', 'SKU-0000999'],
      sort: [],
    }),
  products_search: (tenant) => listProducts.execute(tenant, { search: '0000', skus: [], sort: [] }),
  invoices_default_page_1: (tenant) =>
    listInvoices.execute(tenant, { statuses: [], search: '', sort: [] }),
  invoices_by_total_page_1: (tenant) =>
    listInvoices.execute(tenant, { statuses: [], search: '', sort: sort('total', true) }),
  invoices_status_paid: (tenant) =>
    listInvoices.execute(tenant, { statuses: ['paid'], search: '', sort: [] }),
};

const report: Record<string, unknown> = { rows: ROWS, baseline_rows: BASELINE_ROWS };
for (const [name, run] of Object.entries(cases)) {
  const baseline = await measure(() => run('small'));
  const big = await measure(() => run('big'));
  report[name] = {
    baseline,
    at_rows: big,
    cpu_ratio: Math.round((big.cpu_us / Math.max(1, baseline.cpu_us)) * 10) / 10,
  };
}
console.log(JSON.stringify(report, null, 2));
await connection.close();
await server.stop();
