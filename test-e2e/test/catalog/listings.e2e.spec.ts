import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { seedCatalog } from '@inventory/catalog/dev';
import {
  CATALOG_STREAM,
  productDeleted,
  productUpdated,
  purchaseInvoiceCreated,
} from '@inventory/events';
import { connectNats, ensureStream, EventPublisher } from '@inventory/platform';
import { waitFor } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  createUserWithToken,
  httpCall,
  loginSession,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * The listings seen by path, through the whole system: the owning areas' events on NATS →
 * services/catalog → gateway. One case emits with `npm run emit` as a person would; the others
 * publish with the platform publisher on the CATALOG stream, as the owning areas do.
 */
describe('GET /api/v2/products and GET /api/purchase-invoices', () => {
  let system: RunningSystem;
  let nats: Awaited<ReturnType<typeof connectNats>>;
  let publisher: EventPublisher;
  let acme: TenantFixture;
  let globex: TenantFixture;

  const until = (check: () => Promise<boolean>) => waitFor(check, 30_000);

  /** A tenant with the seed's 5 products and 4 purchase invoices listed. */
  const seededTenant = async () => {
    const tenant = await createTenantWithToken(system);
    await seedCatalog({ natsUrl: system.infra.natsUrl, tenantId: tenant.tenant.id });
    await until(async () => (await tenant.request('GET', '/api/v2/products')).body.total === 5);
    await until(
      async () => (await tenant.request('GET', '/api/purchase-invoices')).body.total === 4,
    );
    return tenant;
  };

  beforeAll(async () => {
    system = await startSystem();
    nats = await connectNats(system.infra.natsUrl, 'e2e-catalog-producer');
    await ensureStream(await nats.jetstreamManager(), CATALOG_STREAM);
    publisher = new EventPublisher(nats.jetstream());
    // Read by every test and changed by none: the tests that publish changes seed their own.
    acme = await seededTenant();
    globex = await createTenantWithToken(system);
  });
  afterAll(async () => {
    await nats?.drain();
    await system?.stop();
  });

  it('lists products in the flat envelope with unfiltered_total and tenant URLs', async () => {
    const response = await acme.request('GET', '/api/v2/products?per_page=2&sort=sku');
    expect(response.status).toBe(200);
    const path = `${acme.baseUrl}/api/v2/products`;
    const url = (page: number) => `${path}?per_page=2&sort=sku&page=${page}`;
    expect({ ...response.body, data: undefined }).toEqual({
      data: undefined,
      current_page: 1,
      last_page: 3,
      per_page: 2,
      total: 5,
      from: 1,
      to: 2,
      first_page_url: url(1),
      last_page_url: url(3),
      next_page_url: url(2),
      prev_page_url: null,
      path,
      links: [
        { url: null, label: '« Previous', active: false },
        { url: url(1), label: '1', active: true },
        { url: url(2), label: '2', active: false },
        { url: url(3), label: '3', active: false },
        { url: url(2), label: 'Next »', active: false },
      ],
      unfiltered_total: 5,
    });
    expect(response.body.data).toEqual([
      {
        id: 4,
        sku: 'CAP-NVY',
        name: 'Cap navy',
        type: 'standard',
        barcode: null,
        price: '15',
        created_at: '2026-01-04T00:00:00.000Z',
        updated_at: '2026-01-04T00:00:00.000Z',
      },
      expect.objectContaining({ sku: 'GIFT-BUNDLE', type: 'bundle', price: '29.9' }),
    ]);
    const filtered = await acme.request('GET', '/api/v2/products?filter[search]=t-shirt');
    expect([filtered.body.total, filtered.body.unfiltered_total]).toEqual([3, 5]);
    const bad = await acme.request('GET', '/api/v2/products?sort=price&page=0');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['page', 'sort']);
  });

  it('follows product updates and deletes; a late older update never resurrects', async () => {
    const own = await seededTenant();
    await publisher.publish(productUpdated, {
      tenantId: own.tenant.id,
      payload: {
        product: {
          product_id: 4,
          sku: 'CAP-NVY',
          name: 'Cap navy (new)',
          type: 'standard',
          price: '16.00',
        },
        version: 2,
      },
    });
    await publisher.publish(productDeleted, {
      tenantId: own.tenant.id,
      payload: { product_id: 5, version: 3 },
    });
    await publisher.publish(productUpdated, {
      tenantId: own.tenant.id,
      payload: {
        product: { product_id: 5, sku: 'GIFT-BUNDLE', name: 'late', type: 'bundle', price: '1' },
        version: 2,
      },
    });
    // A later update on the same subject: once it shows, the late one before it was handled.
    await publisher.publish(productUpdated, {
      tenantId: own.tenant.id,
      payload: {
        product: {
          product_id: 3,
          sku: 'HOODIE-GRY-L',
          name: 'Hoodie marker',
          type: 'standard',
          price: '49.50',
        },
        version: 2,
      },
    });
    await until(async () => {
      const body = (await own.request('GET', '/api/v2/products?sort=id')).body;
      return body.data.some((row: { name: string }) => row.name === 'Hoodie marker');
    });
    const { body } = await own.request('GET', '/api/v2/products?sort=id');
    expect(body.data.map((row: { id: number; price: string }) => [row.id, row.price])).toEqual([
      [1, '19.99'],
      [2, '19.99'],
      [3, '49.50'],
      [4, '16.00'],
    ]);
    expect([body.total, body.unfiltered_total]).toEqual([4, 4]);
  });

  it('lists purchase invoices with decimal-string totals sorted numerically', async () => {
    const own = await seededTenant();
    await publisher.publish(purchaseInvoiceCreated, {
      tenantId: own.tenant.id,
      payload: {
        invoice: {
          purchase_invoice_id: 5,
          supplier_invoice_number: 'ACME-9000',
          status: 'open',
          currency: 'USD',
          total: '99.99',
          due_date: '2026-05-01',
        },
        version: 1,
      },
    });
    await until(async () => (await own.request('GET', '/api/purchase-invoices')).body.total === 5);
    const response = await own.request('GET', '/api/purchase-invoices?sort=-total&per_page=10');
    expect(response.status).toBe(200);
    expect(response.body.data.map((row: { total: string }) => row.total)).toEqual([
      '12000',
      '1250.00',
      '980.5',
      '99.99',
      '75.25',
    ]);
    expect(response.body.data[4]).toEqual({
      id: 4,
      supplier_invoice_number: 'ACME-7790',
      status: 'draft',
      currency: 'EUR',
      total: '75.25',
      due_date: null,
      created_at: '2026-01-13T00:00:00.000Z',
    });
    const open = await own.request(
      'GET',
      '/api/purchase-invoices?filter[status]=open&filter[search]=acme',
    );
    expect(open.body.data.map((row: { id: number }) => row.id)).toEqual([5, 3]);
    expect(open.body.first_page_url).toBe(
      `${own.baseUrl}/api/purchase-invoices?filter%5Bstatus%5D=open&filter%5Bsearch%5D=acme&page=1`,
    );
  });

  it('isolates tenants', async () => {
    const products = await globex.request('GET', '/api/v2/products');
    expect(products.body).toMatchObject({
      data: [],
      total: 0,
      unfiltered_total: 0,
      from: null,
      to: null,
    });
    const invoices = await globex.request('GET', '/api/purchase-invoices');
    expect(invoices.body).toMatchObject({ data: [], total: 0 });
  });

  it('requires products:read and purchase-orders:read, and the user permission', async () => {
    const orders = await createUserWithToken(system, acme.tenant, { scopes: ['orders:read'] });
    const products = await orders.request('GET', '/api/v2/products');
    expect(products.status).toBe(403);
    expect(products.body).toEqual({
      message: 'Token is missing the required scope: products:read.',
      required_scope: 'products:read',
    });
    const invoices = await orders.request('GET', '/api/purchase-invoices');
    expect(invoices.status).toBe(403);
    expect(invoices.body).toEqual({
      message: 'Token is missing the required scope: purchase-orders:read.',
      required_scope: 'purchase-orders:read',
    });

    const reader = await createUserWithToken(system, acme.tenant, {
      scopes: ['products:read', 'purchase-orders:read'],
      isOwner: false,
      permissions: ['products:read'],
    });
    expect((await reader.request('GET', '/api/v2/products')).status).toBe(200);
    const denied = await reader.request('GET', '/api/purchase-invoices');
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(
      'You do not have the permission required for this action: purchase-orders:read.',
    );
    const session = await loginSession(reader, system.gatewayUrl);
    expect((await session.request('GET', '/api/v2/products')).status).toBe(200);
    expect((await session.request('GET', '/api/purchase-invoices')).status).toBe(403);
    expect((await acme.anonymous('GET', '/api/v2/products')).status).toBe(401);
  });

  it('documents both listings and their prefixes in the OpenAPI document', async () => {
    const { body } = await httpCall(system.gatewayUrl, 'GET', '/api/openapi.json');
    const products = body.paths['/api/v2/products'].get;
    const invoices = body.paths['/api/purchase-invoices'].get;
    expect(products.security[0]).toEqual({ bearerToken: ['products:read'] });
    expect(invoices.security[0]).toEqual({ bearerToken: ['purchase-orders:read'] });
    expect(products.tags).toEqual(['Products (prefix /api/v2)']);
    expect(invoices.tags).toEqual(['Purchase invoices (prefix /api)']);
    // Response bodies live in components; the operation points at them.
    const schemaName = products.responses['200'].content['application/json'].schema.$ref.replace(
      '#/components/schemas/',
      '',
    );
    expect(Object.keys(body.components.schemas[schemaName].properties)).toContain(
      'unfiltered_total',
    );
  });

  it('shows a product a person emitted with npm run emit', async () => {
    // A tenant of its own: globex stays empty for the isolation test.
    const emitter = await createTenantWithToken(system);
    const { stdout } = await promisify(execFile)(
      'npm',
      [
        'run',
        '--silent',
        'emit',
        '--',
        'catalog.product.created',
        '--tenant',
        emitter.tenant.slug,
        '--data',
        JSON.stringify({ product_id: 77, sku: 'EMIT-77', name: 'Emitted', price: '7.70' }),
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NATS_URL: system.infra.natsUrl,
          IDENTITY_GRPC_ADDRESS: system.services.identity!.grpc!.address,
          EMIT_DEV_FILE: resolve(ROOT, '.data/no-such-dev.json'),
        },
      },
    );
    expect(JSON.parse(stdout.trim())).toMatchObject({ subject: 'catalog.product.created' });
    await until(async () => (await emitter.request('GET', '/api/v2/products')).body.total === 1);
    const listed = await emitter.request('GET', '/api/v2/products');
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: 77, sku: 'EMIT-77', name: 'Emitted', price: '7.70' }),
    ]);
  });
});
