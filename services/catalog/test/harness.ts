import { CatalogServiceClient } from '@inventory/contracts/catalog/v1/catalog.js';
import {
  productCreated,
  productDeleted,
  productUpdated,
  purchaseInvoiceCreated,
  purchaseInvoiceDeleted,
  purchaseInvoiceUpdated,
  type ProductCreated,
  type PurchaseInvoiceCreated,
} from '@inventory/events';
import {
  consumerDrained,
  eventually,
  startTestInfra,
  type TestInfra,
} from '@inventory/local-infra';
import {
  createGrpcClient,
  describeCallError,
  runWithContext,
  type GrpcClientHandle,
  type ServiceRuntime,
} from '@inventory/platform';
import { withCommandMonitoring } from '@inventory/test-kit';
import { bootstrap } from '../src/bootstrap.js';

export type ProductRecord = NonNullable<ProductCreated['product']>;
export type InvoiceRecord = NonNullable<PurchaseInvoiceCreated['invoice']>;

export interface Harness {
  infra: TestInfra;
  service: ServiceRuntime;
  client: GrpcClientHandle<CatalogServiceClient>;
  stop(): Promise<void>;
}

/** Real MongoDB and NATS; the catalog service over a real gRPC channel. */
export async function startHarness(options: { monitorCommands?: boolean } = {}): Promise<Harness> {
  const infra = await startTestInfra({ redis: false });
  const service = await bootstrap({
    // Command monitoring lets a test count the service's own writes (`commandStarted`).
    MONGO_URL: options.monitorCommands ? withCommandMonitoring(infra.mongoUrl) : infra.mongoUrl,
    NATS_URL: infra.natsUrl,
    MONGO_DB: infra.dbName('catalog'),
    LOG_LEVEL: 'silent',
  });
  const client = createGrpcClient(CatalogServiceClient, service.grpc!.address, {
    deadlineMs: 20_000,
  });
  return {
    infra,
    service,
    client,
    async stop() {
      client.close();
      await service.stop().catch(() => undefined);
      await infra.stop().catch(() => undefined);
    },
  };
}

/** Runs a call as a tenant, the way the gateway's metadata would. */
export const as = <T>(tenantId: string, fn: () => Promise<T>) =>
  runWithContext({ requestId: `test-${Math.random()}`, tenantId, userId: 'user-1' }, fn);

export async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return describeCallError(error);
  }
  throw new Error('expected the call to fail');
}

/** The shared poll (a generous cap; events cross NATS and background jobs asynchronously). */
export { consumerDrained, eventually };

export const product = (id: number, overrides: Partial<ProductRecord> = {}): ProductRecord => ({
  product_id: id,
  sku: `SKU-${String(id).padStart(3, '0')}`,
  name: `Product ${id}`,
  type: 'standard',
  barcode: `BAR${id}`,
  price: `${id}.50`,
  created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, id)),
  updated_at: new Date(Date.UTC(2026, 0, 2, 0, 0, id)),
  ...overrides,
});

export const invoice = (id: number, overrides: Partial<InvoiceRecord> = {}): InvoiceRecord => ({
  purchase_invoice_id: id,
  supplier_invoice_number: `INV-${String(id).padStart(4, '0')}`,
  status: 'open',
  currency: 'USD',
  total: `${id}00.00`,
  due_date: `2026-03-${String(id).padStart(2, '0')}`,
  created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, id)),
  ...overrides,
});

/** Publishes the owning areas' events the way they would, on the CATALOG stream. */
export function publishers(service: ServiceRuntime) {
  const bus = service.publisher;
  return {
    productCreated: (tenantId: string, record: ProductRecord, version = 1, id?: string) =>
      bus.publish(productCreated, { id, tenantId, payload: { product: record, version } }),
    productUpdated: (tenantId: string, record: ProductRecord, version: number, id?: string) =>
      bus.publish(productUpdated, { id, tenantId, payload: { product: record, version } }),
    productDeleted: (tenantId: string, productId: number, version: number) =>
      bus.publish(productDeleted, { tenantId, payload: { product_id: productId, version } }),
    invoiceCreated: (tenantId: string, record: InvoiceRecord, version = 1) =>
      bus.publish(purchaseInvoiceCreated, { tenantId, payload: { invoice: record, version } }),
    invoiceUpdated: (tenantId: string, record: InvoiceRecord, version: number) =>
      bus.publish(purchaseInvoiceUpdated, { tenantId, payload: { invoice: record, version } }),
    invoiceDeleted: (tenantId: string, invoiceId: number, version: number) =>
      bus.publish(purchaseInvoiceDeleted, {
        tenantId,
        payload: { purchase_invoice_id: invoiceId, version },
      }),
  };
}

export const page = (pageNumber: number, perPage: number) => ({
  page: pageNumber,
  per_page: perPage,
});
