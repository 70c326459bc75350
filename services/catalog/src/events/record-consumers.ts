import {
  CATALOG_STREAM,
  productCreated,
  productDeleted,
  productUpdated,
  purchaseInvoiceCreated,
  purchaseInvoiceDeleted,
  purchaseInvoiceUpdated,
  type ProductCreated,
  type PurchaseInvoiceCreated,
} from '@inventory/events';
import type { DomainEvent, EventType, ServiceRuntime } from '@inventory/platform';
import type { ApplyProductChange } from '../use-cases/apply-product-change.js';
import type { ApplyPurchaseInvoiceChange } from '../use-cases/apply-purchase-invoice-change.js';

/**
 * The read models' durable consumers on the CATALOG stream, one per subject. Durable names are
 * `catalog-*` (parcel-tracking's sales-channel durables are its own). Idempotent by event id
 * (the runtime) and version-checked (the use cases). A created and an updated event carry the
 * same full snapshot, so both apply it the same way.
 */
export async function consumeCatalogRecords(
  runtime: ServiceRuntime,
  useCases: { products: ApplyProductChange; invoices: ApplyPurchaseInvoiceChange },
): Promise<void> {
  const { products, invoices } = useCases;
  const consume = <Payload>(
    durable: string,
    event: EventType<Payload>,
    apply: (event: DomainEvent<Payload>) => Promise<boolean>,
  ) =>
    runtime.consume<Payload>({
      stream: CATALOG_STREAM.name,
      durable,
      event,
      handle: async (received) => {
        await apply(received);
      },
    });

  const productSnapshot = ({ tenantId, occurredAt, payload }: DomainEvent<ProductCreated>) =>
    products.execute(tenantId, occurredAt, {
      kind: 'snapshot',
      record: payload.product,
      version: payload.version,
    });
  await consume('catalog-product-created', productCreated, productSnapshot);
  await consume('catalog-product-updated', productUpdated, productSnapshot);
  await consume('catalog-product-deleted', productDeleted, ({ tenantId, occurredAt, payload }) =>
    products.execute(tenantId, occurredAt, {
      kind: 'deleted',
      productId: payload.product_id,
      version: payload.version,
    }),
  );

  const invoiceSnapshot = ({
    tenantId,
    occurredAt,
    payload,
  }: DomainEvent<PurchaseInvoiceCreated>) =>
    invoices.execute(tenantId, occurredAt, {
      kind: 'snapshot',
      record: payload.invoice,
      version: payload.version,
    });
  await consume('catalog-purchase-invoice-created', purchaseInvoiceCreated, invoiceSnapshot);
  await consume('catalog-purchase-invoice-updated', purchaseInvoiceUpdated, invoiceSnapshot);
  await consume(
    'catalog-purchase-invoice-deleted',
    purchaseInvoiceDeleted,
    ({ tenantId, occurredAt, payload }) =>
      invoices.execute(tenantId, occurredAt, {
        kind: 'deleted',
        invoiceId: payload.purchase_invoice_id,
        version: payload.version,
      }),
  );
}
