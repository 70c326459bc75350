import {
  CATALOG_STREAM,
  productCreated,
  productDeleted,
  productUpdated,
  purchaseInvoiceCreated,
  purchaseInvoiceDeleted,
  purchaseInvoiceUpdated,
} from '@inventory/events';
import {
  startBatchConsumer,
  type DomainEvent,
  type EventType,
  type ServiceRuntime,
} from '@inventory/platform';
import type { ProductRecordInput } from '../domain/product.js';
import type { InvoiceRecordInput } from '../domain/purchase-invoice.js';
import type { ProductDocument } from '../store/product.js';
import type { InvoiceDocument } from '../store/purchase-invoice.js';
import type { ApplyRecordChange, ReceivedChange } from '../use-cases/apply-record-change.js';

/** Most events applied in one write: a burst (an import) is taken a hundred at a time. */
const MAX_BATCH = 100;

/** A record's three subjects, each with its durable. */
interface RecordSubjects<Saved, Deleted> {
  created: { durable: string; event: EventType<Saved> };
  updated: { durable: string; event: EventType<Saved> };
  deleted: { durable: string; event: EventType<Deleted> };
}

/**
 * The read models' durable consumers on the CATALOG stream, one per subject. Durable names are
 * `catalog-*` (parcel-tracking's sales-channel durables are its own). Each takes the events that
 * arrived while the previous batch was written and applies them in one bulk write (ADR 0238);
 * version checks make a redelivered batch a no-op, so no per-event processed record is kept. A
 * created and an updated event carry the same full snapshot, so both apply it the same way.
 */
export async function consumeCatalogRecords(
  runtime: ServiceRuntime,
  useCases: {
    products: ApplyRecordChange<ProductRecordInput, ProductDocument>;
    invoices: ApplyRecordChange<InvoiceRecordInput, InvoiceDocument>;
  },
): Promise<void> {
  const consume = async <Payload, Input>(
    { durable, event }: { durable: string; event: EventType<Payload> },
    useCase: { executeAll: (changes: Array<ReceivedChange<Input>>) => Promise<number> },
    read: (event: DomainEvent<Payload>) => ReceivedChange<Input>,
  ) => {
    const consumer = await startBatchConsumer<Payload>({
      jetstream: runtime.jetstream,
      manager: runtime.jetstreamManager,
      logger: runtime.logger,
      stream: CATALOG_STREAM.name,
      durable,
      event,
      maxBatch: MAX_BATCH,
      handle: async (events) => void (await useCase.executeAll(events.map(read))),
    });
    runtime.onStop(() => consumer.stop());
  };

  const consumeRecord = async <
    Input,
    Saved extends { version: number },
    Deleted extends { version: number },
  >(
    useCase: { executeAll: (changes: Array<ReceivedChange<Input>>) => Promise<number> },
    subjects: RecordSubjects<Saved, Deleted>,
    read: { record: (payload: Saved) => Input | undefined; id: (payload: Deleted) => number },
  ) => {
    const snapshot = ({
      tenantId,
      occurredAt,
      payload,
    }: DomainEvent<Saved>): ReceivedChange<Input> => ({
      tenantId,
      occurredAt,
      change: { kind: 'snapshot', record: read.record(payload), version: payload.version },
    });
    await consume(subjects.created, useCase, snapshot);
    await consume(subjects.updated, useCase, snapshot);
    await consume(subjects.deleted, useCase, ({ tenantId, occurredAt, payload }) => ({
      tenantId,
      occurredAt,
      change: { kind: 'deleted', id: read.id(payload), version: payload.version },
    }));
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
