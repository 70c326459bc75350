import {
  CATALOG_STREAM,
  productCreated,
  purchaseInvoiceCreated,
  type ProductCreated,
  type PurchaseInvoiceCreated,
} from '@inventory/events';
import {
  freePort,
  type ManagedProcess,
  spawnServiceMain,
  startTestInfra,
  type TestInfra,
  waitFor,
} from '@inventory/local-infra';
import { enterContext, ServiceRuntime } from '@inventory/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogAdapter, type CatalogAdapter } from '../../adapters/catalog.js';
import { registerErrorHandling } from '../../http/error-handler.js';
import { catalogRoutes } from './listings.js';

/**
 * The catalog listings over HTTP (`inject`) against the real catalog service in its own process,
 * fed through NATS. The tenant is set the way the auth hook sets it; scopes and permissions are
 * covered end to end in test-e2e (catalog-listings.e2e.spec.ts).
 */
const BASE = 'https://acme.inventory.localhost';
const PRODUCTS = `${BASE}/api/v2/products`;
const INVOICES = `${BASE}/api/purchase-invoices`;

let infra: TestInfra;
let service: ManagedProcess;
let producer: ServiceRuntime;
let adapter: CatalogAdapter;
let app: FastifyInstance;

type ProductRecord = NonNullable<ProductCreated['product']>;
type InvoiceRecord = NonNullable<PurchaseInvoiceCreated['invoice']>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Body = Record<string, any>;

async function get(url: string, tenant = 'acme') {
  const response = await app.inject({ method: 'GET', url, headers: { 'x-test-tenant': tenant } });
  return { status: response.statusCode, body: response.json() as Body };
}

beforeAll(async () => {
  infra = await startTestInfra({ redis: false });
  const env = { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, LOG_LEVEL: 'silent' };
  // The real service as its own process: the gateway never imports a service's code.
  const grpcPort = await freePort();
  service = await spawnServiceMain('services/catalog/src/main.ts', {
    env: {
      ...env,
      LOG_LEVEL: 'info',
      MONGO_DB: infra.dbName('catalog'),
      GRPC_PORT: String(grpcPort),
    },
  });
  producer = await ServiceRuntime.start({
    name: 'gateway-catalog-producer',
    dbName: infra.dbName('producer'),
    streams: [CATALOG_STREAM],
    config: {
      ...env,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 0,
      METRICS_PORT: 0,
      SHUTDOWN_TIMEOUT_MS: 5_000,
    },
  });
  adapter = createCatalogAdapter(`127.0.0.1:${grpcPort}`, { deadlineMs: 10_000 });

  app = Fastify();
  registerErrorHandling(app);
  app.decorateRequest('tenant', null as never);
  app.addHook('onRequest', async (request) => {
    const slug = String(request.headers['x-test-tenant']);
    enterContext({ requestId: request.id, tenantId: slug });
    request.tenant = {
      id: slug,
      slug,
      name: slug,
      host: `${slug}.inventory.localhost`,
      base_url: `https://${slug}.inventory.localhost`,
    };
  });
  await app.register(catalogRoutes, { catalog: adapter });

  for (let id = 1; id <= 23; id++) {
    const product: ProductRecord = {
      product_id: id,
      sku: `SKU-${String(id).padStart(2, '0')}`,
      name: id % 2 === 0 ? `Blue shirt ${id}` : `Red cap ${id}`,
      type: 'standard',
      barcode: id === 1 ? undefined : `B${id}`,
      price: `${id}.99`,
      created_at: new Date(Date.UTC(2026, 0, id)),
      updated_at: new Date(Date.UTC(2026, 1, id)),
    };
    await producer.publisher.publish(productCreated, {
      tenantId: 'acme',
      payload: { product, version: 1 },
    });
  }
  const totals = ['9.5', '10', '100.25', '0.75'];
  for (let id = 1; id <= totals.length; id++) {
    const invoice: InvoiceRecord = {
      purchase_invoice_id: id,
      supplier_invoice_number: id <= 2 ? `ACME-${id}` : `GLOBEX-${id}`,
      status: id === 2 ? 'paid' : 'open',
      currency: 'EUR',
      total: totals[id - 1]!,
      due_date: id === 4 ? '' : `2026-04-0${id}`,
      created_at: new Date(Date.UTC(2026, 2, id)),
    };
    await producer.publisher.publish(purchaseInvoiceCreated, {
      tenantId: 'acme',
      payload: { invoice, version: 1 },
    });
  }
  await producer.publisher.publish(productCreated, {
    tenantId: 'globex',
    payload: {
      product: { product_id: 1, sku: 'GLOBEX-ONLY', name: 'Theirs', type: 'standard', price: '1' },
      version: 1,
    },
  });
  await waitFor(async () => (await get('/api/v2/products')).body.total === 23, 30_000);
  await waitFor(async () => (await get('/api/purchase-invoices')).body.total === 4, 30_000);
  await waitFor(async () => (await get('/api/v2/products', 'globex')).body.total === 1, 30_000);
}, 90_000);

afterAll(async () => {
  await app?.close();
  adapter?.close();
  await producer?.stop();
  await service?.stop();
  await infra?.stop();
});

describe('GET /api/v2/products', () => {
  it('answers the flat envelope with unfiltered_total and every item field', async () => {
    const { status, body } = await get('/api/v2/products?per_page=5');
    expect(status).toBe(200);
    const url = (page: number) => `${PRODUCTS}?per_page=5&page=${page}`;
    expect({ ...body, data: body.data.map((row: { id: number }) => row.id) }).toEqual({
      data: [23, 22, 21, 20, 19],
      current_page: 1,
      last_page: 5,
      per_page: 5,
      total: 23,
      from: 1,
      to: 5,
      first_page_url: url(1),
      last_page_url: url(5),
      next_page_url: url(2),
      prev_page_url: null,
      path: PRODUCTS,
      links: [
        { url: null, label: '« Previous', active: false },
        { url: url(1), label: '1', active: true },
        { url: url(2), label: '2', active: false },
        { url: url(3), label: '3', active: false },
        { url: url(4), label: '4', active: false },
        { url: url(5), label: '5', active: false },
        { url: url(2), label: 'Next »', active: false },
      ],
      unfiltered_total: 23,
    });
    expect(body.data[0]).toEqual({
      id: 23,
      sku: 'SKU-23',
      name: 'Red cap 23',
      type: 'standard',
      barcode: 'B23',
      price: '23.99',
      created_at: '2026-01-23T00:00:00.000Z',
      updated_at: '2026-02-23T00:00:00.000Z',
    });
  });

  it('middle, last, past-the-end and empty pages', async () => {
    const middle = (await get('/api/v2/products?per_page=5&page=3')).body;
    expect(middle).toMatchObject({
      current_page: 3,
      from: 11,
      to: 15,
      prev_page_url: `${PRODUCTS}?per_page=5&page=2`,
      next_page_url: `${PRODUCTS}?per_page=5&page=4`,
    });
    expect(middle.links.filter((link: { active: boolean }) => link.active)).toEqual([
      { url: `${PRODUCTS}?per_page=5&page=3`, label: '3', active: true },
    ]);
    const last = (await get('/api/v2/products?per_page=5&page=5')).body;
    expect(last).toMatchObject({ current_page: 5, from: 21, to: 23, next_page_url: null });
    expect(last.data.map((row: { id: number }) => row.id)).toEqual([3, 2, 1]);
    expect(last.data[2].barcode).toBeNull();
    const beyond = (await get('/api/v2/products?per_page=5&page=8')).body;
    expect(beyond).toMatchObject({
      data: [],
      current_page: 8,
      last_page: 5,
      total: 23,
      from: null,
      to: null,
      next_page_url: null,
      prev_page_url: `${PRODUCTS}?per_page=5&page=7`,
      unfiltered_total: 23,
    });
    const empty = (await get('/api/v2/products', 'nobody')).body;
    expect(empty).toMatchObject({
      data: [],
      current_page: 1,
      last_page: 1,
      total: 0,
      from: null,
      to: null,
      next_page_url: null,
      prev_page_url: null,
      unfiltered_total: 0,
      path: 'https://nobody.inventory.localhost/api/v2/products',
    });
  });

  it('filters by search and sku, keeps the filters in every URL and unfiltered_total before them', async () => {
    const query = 'filter%5Bsearch%5D=blue&sort=-sku&per_page=2';
    const { body } = await get(`/api/v2/products?${query}`);
    expect(body.total).toBe(11);
    expect(body.unfiltered_total).toBe(23);
    expect(body.data.map((row: { sku: string }) => row.sku)).toEqual(['SKU-22', 'SKU-20']);
    const urls = [
      body.first_page_url,
      body.last_page_url,
      body.next_page_url,
      ...body.links.map((link: { url: string | null }) => link.url).filter(Boolean),
    ];
    for (const url of urls) {
      const params = new URL(url).searchParams;
      expect([params.get('filter[search]'), params.get('sort'), params.get('per_page')]).toEqual([
        'blue',
        '-sku',
        '2',
      ]);
    }
    const bySku = (await get('/api/v2/products?filter[sku]=SKU-03,SKU-07,sku-09&sort=sku')).body;
    expect(bySku.data.map((row: { sku: string }) => row.sku)).toEqual(['SKU-03', 'SKU-07']);
    expect([bySku.total, bySku.unfiltered_total]).toEqual([2, 23]);
    const regex = (await get('/api/v2/products?filter[search]=.*')).body;
    expect([regex.total, regex.unfiltered_total]).toEqual([0, 23]);
  });

  it.each(['id', 'sku', 'name', 'created_at', 'updated_at'])(
    'sorts by %s and -%s',
    async (field) => {
      const ascending = (await get(`/api/v2/products?sort=${field}&per_page=100`)).body.data;
      const descending = (await get(`/api/v2/products?sort=-${field}&per_page=100`)).body.data;
      const values = ascending.map((row: Record<string, string | number>) => row[field]);
      expect(values).toEqual([...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(descending.map((row: { id: number }) => row.id)).toEqual(
        ascending.map((row: { id: number }) => row.id).reverse(),
      );
    },
  );

  it.each([
    ['sort=price', 'sort'],
    ['sort=-', 'sort'],
    ['sort=sku,bogus', 'sort'],
    ['sort=sku&sort=name', 'sort'],
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['page=1e9', 'page'],
    ['page=1000000000', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=1001', 'per_page'],
    ['per_page=-5', 'per_page'],
    ['filter[search]=a&filter[search]=b', 'filter.search'],
    [`filter[search]=${'x'.repeat(256)}`, 'filter.search'],
    [`filter[sku]=${Array.from({ length: 501 }, (_, i) => `S${i}`).join(',')}`, 'filter.sku'],
  ])('answers 422 for %s', async (query, field) => {
    const { status, body } = await get(`/api/v2/products?${query}`);
    expect(status).toBe(422);
    expect(Object.keys(body.errors)).toEqual([field]);
    expect(typeof body.message).toBe('string');
  });

  it('reports every bad parameter at once', async () => {
    const { status, body } = await get('/api/v2/products?sort=nope&page=-1&per_page=x');
    expect(status).toBe(422);
    expect(Object.keys(body.errors).sort()).toEqual(['page', 'per_page', 'sort']);
  });

  it('shows each tenant only its own products', async () => {
    const theirs = (await get('/api/v2/products', 'globex')).body;
    expect(theirs.data.map((row: { sku: string }) => row.sku)).toEqual(['GLOBEX-ONLY']);
    expect(theirs.unfiltered_total).toBe(1);
    const mine = (await get('/api/v2/products?filter[sku]=GLOBEX-ONLY')).body;
    expect([mine.total, mine.data]).toEqual([0, []]);
  });
});

describe('GET /api/purchase-invoices', () => {
  it('answers the flat envelope; total a decimal string, due_date a date or null', async () => {
    const { status, body } = await get('/api/purchase-invoices');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      current_page: 1,
      last_page: 1,
      per_page: 10,
      total: 4,
      from: 1,
      to: 4,
      prev_page_url: null,
      next_page_url: null,
      path: INVOICES,
    });
    expect(body).not.toHaveProperty('unfiltered_total');
    expect(body.data[0]).toEqual({
      id: 4,
      supplier_invoice_number: 'GLOBEX-4',
      status: 'open',
      currency: 'EUR',
      total: '0.75',
      due_date: null,
      created_at: '2026-03-04T00:00:00.000Z',
    });
    expect(body.data[3]).toMatchObject({ id: 1, total: '9.5', due_date: '2026-04-01' });
  });

  it('sorts total numerically and by due_date / created_at', async () => {
    const ids = async (query: string) =>
      (await get(`/api/purchase-invoices?${query}`)).body.data.map((row: { id: number }) => row.id);
    expect(await ids('sort=total')).toEqual([4, 1, 2, 3]);
    expect(await ids('sort=-total')).toEqual([3, 2, 1, 4]);
    expect(await ids('sort=due_date')).toEqual([4, 1, 2, 3]);
    expect(await ids('sort=created_at')).toEqual([1, 2, 3, 4]);
    expect(await ids('filter[status]=paid,void')).toEqual([2]);
    expect(await ids('filter[search]=globex&sort=-due_date')).toEqual([3, 4]);
  });

  it('keeps status filter and sort in page URLs', async () => {
    const { body } = await get(
      '/api/purchase-invoices?filter%5Bstatus%5D=open&sort=total&per_page=2',
    );
    expect(body).toMatchObject({
      total: 3,
      last_page: 2,
      next_page_url: `${INVOICES}?filter%5Bstatus%5D=open&sort=total&per_page=2&page=2`,
    });
  });

  it.each([
    ['sort=id'],
    ['sort=status'],
    ['sort=supplier_invoice_number'],
    ['sort=-amount'],
    ['page=2.5'],
    [`filter[status]=${'s'.repeat(65)}`],
  ])('answers 422 for %s', async (query) => {
    const { status, body } = await get(`/api/purchase-invoices?${query}`);
    expect(status).toBe(422);
    expect(Object.keys(body.errors)).toHaveLength(1);
  });
});
