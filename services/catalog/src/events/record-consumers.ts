import {
  CATALOG_STREAM,
  productCreated,
  productDeleted,
  productUpdated,
  purchaseInvoiceCreated,
  purchaseInvoiceDeleted,
  purchaseInvoiceUpdated,
} from '@inventory/events';
import type { ServiceRuntime } from '@inventory/platform';
import type { ApplyProductChange } from '../use-cases/apply-product-change.js';
import type { ApplyPurchaseInvoiceChange } from '../use-cases/apply-purchase-invoice-change.js';

/**
 * The read models' durable consumers on the CATALOG stream, one per subject. Durable names are
 * `catalog-*` (parcel-tracking's sales-channel durables are its own). Idempotent by event id
 * (the runtime) and version-checked (the use cases).
 */
export async function consumeCatalogRecords(
  runtime: ServiceRuntime,
  useCases: { products: ApplyProductChange; invoices: ApplyPurchaseInvoiceChange },
): Promise<void> {
  const stream = CATALOG_STREAM.name;
  const { products, invoices } = useCases;
  await runtime.consume({
    stream,
    durable: 'catalog-product-created',
    event: productCreated,
    handle: async ({ tenantId, occurredAt, payload }) => {
      await products.execute(tenantId, occurredAt, {
        kind: 'snapshot',
        record: payload.product,
        version: payload.version,
      });
    },
  });
  await runtime.consume({
    stream,
    durable: 'catalog-product-updated',
    event: productUpdated,
    handle: async ({ tenantId, occurredAt, payload }) => {
      await products.execute(tenantId, occurredAt, {
        kind: 'snapshot',
        record: payload.product,
        version: payload.version,
      });
    },
  });
  await runtime.consume({
    stream,
    durable: 'catalog-product-deleted',
    event: productDeleted,
    handle: async ({ tenantId, occurredAt, payload }) => {
      await products.execute(tenantId, occurredAt, {
        kind: 'deleted',
        productId: payload.product_id,
        version: payload.version,
      });
    },
  });
  await runtime.consume({
    stream,
    durable: 'catalog-purchase-invoice-created',
    event: purchaseInvoiceCreated,
    handle: async ({ tenantId, occurredAt, payload }) => {
      await invoices.execute(tenantId, occurredAt, {
        kind: 'snapshot',
        record: payload.invoice,
        version: payload.version,
      });
    },
  });
  await runtime.consume({
    stream,
    durable: 'catalog-purchase-invoice-updated',
    event: purchaseInvoiceUpdated,
    handle: async ({ tenantId, occurredAt, payload }) => {
      await invoices.execute(tenantId, occurredAt, {
        kind: 'snapshot',
        record: payload.invoice,
        version: payload.version,
      });
    },
  });
  await runtime.consume({
    stream,
    durable: 'catalog-purchase-invoice-deleted',
    event: purchaseInvoiceDeleted,
    handle: async ({ tenantId, occurredAt, payload }) => {
      await invoices.execute(tenantId, occurredAt, {
        kind: 'deleted',
        invoiceId: payload.purchase_invoice_id,
        version: payload.version,
      });
    },
  });
}
