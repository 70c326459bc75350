import {
  CATALOG_STREAM,
  productCreated,
  productDeleted,
  productUpdated,
  purchaseInvoiceCreated,
  purchaseInvoiceDeleted,
  purchaseInvoiceUpdated,
} from '@inventory/events';
import type { DomainEvent, EventType, ServiceRuntime } from '@inventory/platform';
import type { ProductRecordInput } from '../domain/product.js';
import type { InvoiceRecordInput } from '../domain/purchase-invoice.js';
import type { ProductDocument } from '../store/product.js';
import type { InvoiceDocument } from '../store/purchase-invoice.js';
import type { ApplyRecordChange, RecordChange } from '../use-cases/apply-record-change.js';

/** A record's three subjects, each with its durable. */
interface RecordSubjects<Saved, Deleted> {
  created: { durable: string; event: EventType<Saved> };
  updated: { durable: string; event: EventType<Saved> };
  deleted: { durable: string; event: EventType<Deleted> };
}

/**
 * The read models' durable consumers on the CATALOG stream, one per subject. Durable names are
 * `catalog-*` (parcel-tracking's sales-channel durables are its own). Idempotent by event id
 * (the runtime) and version-checked (the use cases). A created and an updated event carry the
 * same full snapshot, so both apply it the same way.
 */
export async function consumeCatalogRecords(
  runtime: ServiceRuntime,
  useCases: {
    products: ApplyRecordChange<ProductRecordInput, ProductDocument>;
    invoices: ApplyRecordChange<InvoiceRecordInput, InvoiceDocument>;
  },
): Promise<void> {
  const consume = <Payload>(
    { durable, event }: { durable: string; event: EventType<Payload> },
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

  const consumeRecord = async <
    Input,
    Saved extends { version: number },
    Deleted extends { version: number },
  >(
    useCase: {
      execute: (tenantId: string, at: Date, change: RecordChange<Input>) => Promise<boolean>;
    },
    subjects: RecordSubjects<Saved, Deleted>,
    read: { record: (payload: Saved) => Input | undefined; id: (payload: Deleted) => number },
  ) => {
    const snapshot = ({ tenantId, occurredAt, payload }: DomainEvent<Saved>) =>
      useCase.execute(tenantId, occurredAt, {
        kind: 'snapshot',
        record: read.record(payload),
        version: payload.version,
      });
    await consume(subjects.created, snapshot);
    await consume(subjects.updated, snapshot);
    await consume(subjects.deleted, ({ tenantId, occurredAt, payload }) =>
      useCase.execute(tenantId, occurredAt, {
        kind: 'deleted',
        id: read.id(payload),
        version: payload.version,
      }),
    );
  };

  await consumeRecord(
    useCases.products,
    {
      created: { durable: 'catalog-product-created', event: productCreated },
      updated: { durable: 'catalog-product-updated', event: productUpdated },
      deleted: { durable: 'catalog-product-deleted', event: productDeleted },
    },
    { record: (payload) => payload.product, id: (payload) => payload.product_id },
  );
  await consumeRecord(
    useCases.invoices,
    {
      created: { durable: 'catalog-purchase-invoice-created', event: purchaseInvoiceCreated },
      updated: { durable: 'catalog-purchase-invoice-updated', event: purchaseInvoiceUpdated },
      deleted: { durable: 'catalog-purchase-invoice-deleted', event: purchaseInvoiceDeleted },
    },
    { record: (payload) => payload.invoice, id: (payload) => payload.purchase_invoice_id },
  );
}
