import { randomUUID } from 'node:crypto';
import { CATALOG_STREAM, productCreated, productUpdated } from '@inventory/events';
import { encodeEvent } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  consumerDrained,
  eventually,
  invoice,
  product,
  publishers,
  startHarness,
  type Harness,
} from './harness.js';

let h: Harness;
let bus: ReturnType<typeof publishers>;
beforeAll(async () => {
  h = await startHarness();
  bus = publishers(h.service);
});
afterAll(() => h?.stop());

const products = async (tenantId: string) =>
  (
    await as(tenantId, () =>
      h.client.call.listProducts({
        search: '',
        skus: [],
        sort: [{ field: 'id', descending: false }],
      }),
    )
  ).products;
const invoices = async (tenantId: string) =>
  (
    await as(tenantId, () =>
      h.client.call.listPurchaseInvoices({
        statuses: [],
        search: '',
        sort: [{ field: 'created_at', descending: false }],
      }),
    )
  ).invoices;

/**
 * Each subject has its own durable consumer that handles events in stream order, so once a
 * later marker event on the same subject shows, every event published before it was handled.
 */
async function afterUpdatesHandled(tenantId: string, markerId: number) {
  await bus.productUpdated(tenantId, product(markerId, { name: 'marker' }), 1);
  await eventually(async () =>
    expect((await products(tenantId)).find((row) => row.id === markerId)?.name).toBe('marker'),
  );
}

describe('product events', () => {
  it('applies created, updated and deleted', async () => {
    const tenant = `events-${randomUUID()}`;
    await bus.productCreated(tenant, product(1), 1);
    await eventually(async () =>
      expect((await products(tenant)).map((r) => r.name)).toEqual(['Product 1']),
    );
    await bus.productUpdated(tenant, product(1, { name: 'Renamed', price: '2.25' }), 2);
    await eventually(async () =>
      expect((await products(tenant))[0]).toMatchObject({ name: 'Renamed', price: '2.25' }),
    );
    await bus.productDeleted(tenant, 1, 3);
    await eventually(async () => expect(await products(tenant)).toEqual([]));
  });

  it('ignores an older update that arrives after a newer one', async () => {
    const tenant = `events-${randomUUID()}`;
    await bus.productCreated(tenant, product(1), 1);
    await bus.productUpdated(tenant, product(1, { name: 'v3' }), 3);
    await bus.productUpdated(tenant, product(1, { name: 'v2' }), 2);
    await afterUpdatesHandled(tenant, 99);
    expect((await products(tenant)).find((row) => row.id === 1)?.name).toBe('v3');
  });

  it('never resurrects a deleted product: a delete before its create leaves a tombstone', async () => {
    const tenant = `events-${randomUUID()}`;
    await bus.productDeleted(tenant, 1, 5);
    await bus.productDeleted(tenant, 2, 5);
    await bus.productCreated(tenant, product(2), 1);
    await bus.productCreated(tenant, product(3), 1);
    await eventually(async () =>
      expect((await products(tenant)).map((row) => row.id)).toEqual([3]),
    );
    // Late creates and updates below the tombstone's version, after the delete was applied.
    await bus.productCreated(tenant, product(1), 4);
    await bus.productUpdated(tenant, product(2, { name: 'late' }), 4);
    await bus.productCreated(tenant, product(4), 1);
    await eventually(async () =>
      expect((await products(tenant)).map((row) => row.id)).toEqual([3, 4]),
    );
    await afterUpdatesHandled(tenant, 98);
    expect((await products(tenant)).map((row) => row.id)).toEqual([3, 4, 98]);
  });

  it('a redelivered event (same event id, past JetStream dedupe) changes nothing', async () => {
    const tenant = `events-${randomUUID()}`;
    const { bytes } = encodeEvent(productCreated, {
      id: `dup-${tenant}`,
      tenantId: tenant,
      payload: { product: product(1, { name: 'first' }), version: 0 },
      occurredAt: new Date(Date.UTC(2026, 0, 1)),
    });
    await h.service.jetstream.publish(productCreated.subject, bytes, { msgID: randomUUID() });
    await h.service.jetstream.publish(productCreated.subject, bytes, { msgID: randomUUID() });
    // A later event on the same durable: once it shows, both copies were handled before it.
    await bus.productCreated(tenant, product(2), 1);
    await eventually(async () =>
      expect((await products(tenant)).map((row) => row.name)).toEqual(['first', 'Product 2']),
    );
    // A newer change, then the create once more: the version check alone ignores the repeat,
    // without a processed-event record (ADR 0238).
    await h.service.publisher.publish(productUpdated, {
      tenantId: tenant,
      occurredAt: new Date(Date.UTC(2026, 0, 2)),
      payload: { product: product(1, { name: 'second' }), version: 0 },
    });
    await afterUpdatesHandled(tenant, 96);
    await h.service.jetstream.publish(productCreated.subject, bytes, { msgID: randomUUID() });
    await consumerDrained(
      h.service.jetstreamManager,
      CATALOG_STREAM.name,
      'catalog-product-created',
    );
    expect((await products(tenant)).find((row) => row.id === 1)?.name).toBe('second');
    expect(
      await h.service.mongo
        .collection('processed_events')
        .countDocuments({ consumer: 'catalog-product-created' }),
    ).toBe(0);
    // Without a producer version the event time orders changes: an older-timed update is ignored.
    await h.service.publisher.publish(productUpdated, {
      tenantId: tenant,
      occurredAt: new Date(Date.UTC(2025, 11, 31)),
      payload: { product: product(1, { name: 'older' }), version: 0 },
    });
    await afterUpdatesHandled(tenant, 97);
    expect((await products(tenant)).find((row) => row.id === 1)?.name).toBe('second');
  });

  it('drops a record that can never be shown and carries on', async () => {
    const tenant = `events-${randomUUID()}`;
    await bus.productCreated(tenant, product(1, { price: '1.23456' }), 1);
    await bus.productCreated(tenant, product(2, { sku: '   ' }), 1);
    await bus.productCreated(tenant, product(3, { price: '0.1' }), 1);
    await eventually(async () =>
      expect((await products(tenant)).map((row) => [row.id, row.price])).toEqual([[3, '0.1']]),
    );
  });
});

describe('purchase invoice events', () => {
  it('versions and tombstones invoices like products', async () => {
    const tenant = `events-${randomUUID()}`;
    await bus.invoiceDeleted(tenant, 1, 9);
    await bus.invoiceCreated(tenant, invoice(1), 1);
    await bus.invoiceCreated(tenant, invoice(2, { status: 'open' }), 1);
    await bus.invoiceUpdated(tenant, invoice(2, { status: 'paid', total: '12.5' }), 3);
    await bus.invoiceUpdated(tenant, invoice(2, { status: 'void' }), 2);
    await bus.invoiceCreated(tenant, invoice(3, { currency: 'dollars' }), 1);
    await bus.invoiceUpdated(tenant, invoice(4, { status: 'draft' }), 1);
    // Invoice 4's update is the last event on its subject: once it shows, invoice 2's are done.
    await eventually(async () =>
      expect((await invoices(tenant)).map((row) => [row.id, row.status, row.total])).toEqual([
        [2, 'paid', '12.5'],
        [4, 'draft', '400.00'],
      ]),
    );
  });
});
