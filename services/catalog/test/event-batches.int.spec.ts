import { randomUUID } from 'node:crypto';
import { CATALOG_STREAM } from '@inventory/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductRecordInput } from '../src/domain/product.js';
import type { ProductDocument } from '../src/store/product.js';
import { ProductRepository } from '../src/store/product-repository.js';
import { ApplyRecordChange, type ReceivedChange } from '../src/use-cases/apply-record-change.js';
import { PRODUCT_RECORDS } from '../src/use-cases/record-kinds.js';
import {
  as,
  consumerDrained,
  eventually,
  page,
  product,
  publishers,
  startHarness,
  type Harness,
  type ProductRecord,
} from './harness.js';

let h: Harness;
let bus: ReturnType<typeof publishers>;
beforeAll(async () => {
  h = await startHarness({ monitorCommands: true });
  bus = publishers(h.service);
});
afterAll(() => h?.stop());

/** The next `times` writes to products fail as a whole (a non-retryable server error). */
const failProductWrites = (times: number) =>
  h.service.mongo
    .getClient()
    .db('admin')
    .command({
      configureFailPoint: 'failCommand',
      mode: { times },
      data: {
        failCommands: ['update'],
        errorCode: 2,
        namespace: `${h.service.mongo.name}.products`,
      },
    });

const PRODUCT_DURABLES = [
  'catalog-product-created',
  'catalog-product-updated',
  'catalog-product-deleted',
];

const listed = async (tenantId: string) =>
  (
    await as(tenantId, () =>
      h.client.call.listProducts({
        search: '',
        skus: [],
        sort: [{ field: 'id', descending: false }],
        page: page(1, 100),
      }),
    )
  ).products.map((row) => ({ id: row.id, name: row.name, price: row.price }));

/** Every row of the tenant as stored, tombstones included. */
const stored = (tenantId: string) =>
  h.service.mongo
    .collection('products')
    .find(
      { tenant_id: tenantId },
      { projection: { _id: 0, id: 1, name: 1, version: 1, deleted: 1 } },
    )
    .sort({ id: 1 })
    .toArray();

const allDrained = () =>
  Promise.all(
    PRODUCT_DURABLES.map((durable) =>
      consumerDrained(h.service.jetstreamManager, CATALOG_STREAM.name, durable),
    ),
  );

type ProductEvent =
  | { kind: 'created' | 'updated'; record: ProductRecord; version: number }
  | { kind: 'deleted'; id: number; version: number };

const publish = (tenantId: string, event: ProductEvent) =>
  event.kind === 'deleted'
    ? bus.productDeleted(tenantId, event.id, event.version)
    : event.kind === 'created'
      ? bus.productCreated(tenantId, event.record, event.version)
      : bus.productUpdated(tenantId, event.record, event.version);

/**
 * A burst with every case: out of order, repeated, created/updated/deleted of one record, a late
 * create after a delete, a record that can never be shown. No two events of one record share a
 * version, so the newest is the same whatever the arrival order.
 */
function burst(): ProductEvent[] {
  const events: ProductEvent[] = [];
  for (let id = 1; id <= 30; id++) {
    events.push({ kind: 'updated', record: product(id, { name: `v3 of ${id}` }), version: 3 });
    events.push({ kind: 'created', record: product(id, { name: `v1 of ${id}` }), version: 1 });
    events.push({ kind: 'updated', record: product(id, { name: `v2 of ${id}` }), version: 2 });
    events.push({ kind: 'updated', record: product(id, { name: `v3 of ${id}` }), version: 3 });
    if (id % 5 === 0) events.push({ kind: 'deleted', id, version: 4 });
    if (id % 10 === 0)
      events.push({ kind: 'created', record: product(id, { name: 'late' }), version: 2 });
  }
  events.push({ kind: 'created', record: product(31, { price: '1.23456' }), version: 1 });
  return events;
}

const expectedAfterBurst = Array.from({ length: 30 }, (_, index) => index + 1)
  .filter((id) => id % 5 !== 0)
  .map((id) => ({ id, name: `v3 of ${id}`, price: `${id}.50` }));

describe('record events applied in batches', () => {
  it('a burst ends where the same events applied one by one end, in fewer writes', async () => {
    const batched = `batches-${randomUUID()}`;
    const oneByOne = `one-by-one-${randomUUID()}`;
    const events = burst();
    let writesOfBatched = 0;
    const countWrites = (event: { commandName: string; command: Record<string, unknown> }) => {
      const updates = event.command.updates as Array<{ q: { tenant_id?: string } }> | undefined;
      if (event.commandName === 'update' && updates?.some((u) => u.q.tenant_id === batched))
        writesOfBatched++;
    };
    const client = h.service.mongo.getClient();
    client.on('commandStarted', countWrites);
    try {
      await Promise.all(events.map((event) => publish(batched, event)));
      await allDrained();
    } finally {
      client.off('commandStarted', countWrites);
    }
    for (const event of events) {
      await publish(oneByOne, event);
      await consumerDrained(
        h.service.jetstreamManager,
        CATALOG_STREAM.name,
        `catalog-product-${event.kind}`,
      );
    }

    expect(await listed(batched)).toEqual(expectedAfterBurst);
    expect(await listed(oneByOne)).toEqual(expectedAfterBurst);
    // Tombstones too (a tombstone's other fields are never read, and differ by whether its
    // record's earlier changes were written before the delete).
    const versions = async (tenantId: string) =>
      (await stored(tenantId)).map(({ id, version, deleted }) => ({ id, version, deleted }));
    expect(await versions(batched)).toEqual(await versions(oneByOne));
    // Every valid event is a write when handled one at a time; the burst took fewer.
    expect(writesOfBatched).toBeGreaterThan(0);
    expect(writesOfBatched).toBeLessThan(events.length - 1);
  });

  it('a batch whose write fails is redelivered and converges', async () => {
    const tenant = `failing-${randomUUID()}`;
    const failedBefore = await failedEvents();
    await failProductWrites(2);
    await Promise.all(burst().map((event) => publish(tenant, event)));
    await eventually(async () => expect(await listed(tenant)).toEqual(expectedAfterBurst));
    await allDrained();
    expect(await listed(tenant)).toEqual(expectedAfterBurst);
    expect(await failedEvents()).toBeGreaterThan(failedBefore);
  });
});

/** How many product events the consumers nakked, from the service's own metrics. */
async function failedEvents(): Promise<number> {
  const text = await (
    await fetch(`http://127.0.0.1:${h.service.metricsServerPort}/metrics`)
  ).text();
  let failed = 0;
  for (const line of text.split('\n'))
    if (
      line.startsWith('events_consumed_total{') &&
      line.includes('outcome="failed"') &&
      PRODUCT_DURABLES.some((durable) => line.includes(`durable="${durable}"`))
    )
      failed += Number(line.slice(line.lastIndexOf(' ') + 1));
  return failed;
}

describe('one batch of one record kind', () => {
  let records: ProductRepository;
  let useCase: ApplyRecordChange<ProductRecordInput, ProductDocument>;
  beforeAll(() => {
    records = new ProductRepository(h.service.mongo);
    useCase = new ApplyRecordChange(PRODUCT_RECORDS, records, h.service.logger);
  });
  const at = new Date(Date.UTC(2026, 0, 5));
  const snapshot = (
    tenantId: string,
    record: ProductRecord,
    version: number,
  ): ReceivedChange<ProductRecordInput> => ({
    tenantId,
    occurredAt: at,
    change: { kind: 'snapshot', record, version },
  });
  const deleted = (
    tenantId: string,
    id: number,
    version: number,
  ): ReceivedChange<ProductRecordInput> => ({
    tenantId,
    occurredAt: at,
    change: { kind: 'deleted', id, version },
  });

  it('collapses each record to its newest change, per tenant, and drops a bad record alone', async () => {
    const tenant = `one-batch-${randomUUID()}`;
    const other = `one-batch-other-${randomUUID()}`;
    const batch = [
      // Created, updated and deleted in one batch, the delete first.
      deleted(tenant, 1, 3),
      snapshot(tenant, product(1, { name: 'created' }), 1),
      snapshot(tenant, product(1, { name: 'updated' }), 2),
      // Updated twice, the newer first; a repeat of the same version keeps the first.
      snapshot(tenant, product(2, { name: 'v5' }), 5),
      snapshot(tenant, product(2, { name: 'v4' }), 4),
      snapshot(tenant, product(3, { name: 'first' }), 2),
      snapshot(tenant, product(3, { name: 'repeat' }), 2),
      // Never shown: no SKU. Its neighbours are written all the same.
      snapshot(tenant, product(4, { sku: '  ' }), 1),
      deleted(tenant, 0, 1),
      // Another tenant's record with the same id.
      snapshot(other, product(1, { name: 'other tenant' }), 1),
    ];
    expect(await useCase.executeAll(batch)).toBe(4);
    expect(await stored(tenant)).toEqual([
      { id: 1, version: 3, deleted: true },
      { id: 2, name: 'v5', version: 5, deleted: false },
      { id: 3, name: 'first', version: 2, deleted: false },
    ]);
    expect(await stored(other)).toEqual([
      { id: 1, name: 'other tenant', version: 1, deleted: false },
    ]);
    // The same batch again (a redelivery) changes nothing.
    expect(await useCase.executeAll(batch)).toBe(0);
    expect((await stored(tenant)).map((row) => row.version)).toEqual([3, 5, 2]);
  });

  it('ignores older and late events beside new ones: their collisions are not failures', async () => {
    const tenant = `one-batch-${randomUUID()}`;
    await useCase.executeAll([
      snapshot(tenant, product(1, { name: 'held' }), 5),
      deleted(tenant, 2, 5),
    ]);
    const changed = await useCase.executeAll([
      snapshot(tenant, product(1, { name: 'older' }), 4),
      snapshot(tenant, product(1, { name: 'same version' }), 5),
      snapshot(tenant, product(2, { name: 'late create' }), 1),
      snapshot(tenant, product(3, { name: 'new' }), 1),
    ]);
    expect(changed).toBe(1);
    expect(await stored(tenant)).toEqual([
      { id: 1, name: 'held', version: 5, deleted: false },
      { id: 2, version: 5, deleted: true },
      { id: 3, name: 'new', version: 1, deleted: false },
    ]);
  });

  it('a bulk write failing for another reason fails the whole batch, and a repeat converges', async () => {
    const tenant = `one-batch-${randomUUID()}`;
    const batch = [
      snapshot(tenant, product(1, { name: 'one' }), 1),
      snapshot(tenant, product(2, { name: 'two' }), 1),
    ];
    await failProductWrites(1);
    await expect(useCase.executeAll(batch)).rejects.toThrow(/failCommand/);
    expect(await useCase.executeAll(batch)).toBe(2);
    expect((await stored(tenant)).map((row) => row.name)).toEqual(['one', 'two']);
  });
});
