import { productCreated } from '@inventory/events';
import { DomainEventPayload } from '@inventory/contracts/events/v1/domain_events.js';
import { connectNats, defineEvent, encodeEvent, EventPublisher } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import { productPayload, waitFor } from './harness.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-product-created';

/** One fact, one event (ADR 0416): `catalog.product.created` is what reaches `product.created`. */
describe('product.created from the catalog record', () => {
  const suite = useReceiverSuite();
  const bodiesTo = (path: string) =>
    suite.bodiesTo<{ event: string; occurred_at: string; data: Record<string, unknown> }>(path);

  it('delivers a catalog.product.created publish to a product.created subscription, the product as its data', async () => {
    const { id } = await suite.subscribe(TENANT, '/products', ['product.created']);
    const other = await suite.subscribe(TENANT, '/orders', ['sales_order.created']);
    const occurredAt = new Date('2026-03-04T05:06:07.089Z');
    await suite.h.publishProduct(
      TENANT,
      { product_id: 42, sku: 'ACME-42', name: 'Anvil', barcode: '4006381333931', price: '19.99' },
      { occurredAt },
    );

    const [delivery] = await suite.settled(TENANT, id, 1);
    expect(delivery).toMatchObject({ status: 'succeeded', event: 'product.created' });
    const [body] = bodiesTo('/products');
    expect(body).toEqual({
      event: 'product.created',
      delivery_id: delivery!.id,
      occurred_at: '2026-03-04T05:06:07.089Z',
      data: {
        id: 42,
        sku: 'ACME-42',
        name: 'Anvil',
        type: 'standard',
        barcode: '4006381333931',
        price: '19.99',
        created_at: '2026-03-04T05:06:07.089Z',
        updated_at: '2026-03-04T05:06:07.089Z',
        resource_sequence: expect.any(Number),
      },
    });
    expect((await suite.deliveriesOf(TENANT, other.id)).total).toBe(0);
  });

  it('delivers exactly once, also when the same event comes back from the stream', async () => {
    const { id } = await suite.subscribe(TENANT, '/once', ['product.created']);
    // The same event twice on the stream (no publish dedupe header): as a redelivery would be.
    const { bytes } = encodeEvent(productCreated, {
      id: 'evt-product-dup-1',
      tenantId: TENANT,
      payload: productPayload({ product_id: 7, sku: 'DUP-7' }),
    });
    await suite.h.service.jetstream.publish(productCreated.subject, bytes);
    await suite.h.service.jetstream.publish(productCreated.subject, bytes);
    await suite.settled(TENANT, id, 1);
    // Again once its delivery is stored (an ack lost), then a marker behind it.
    await suite.h.service.jetstream.publish(productCreated.subject, bytes);
    await suite.h.publishProduct(TENANT, { product_id: 8, sku: 'MARKER-8' });
    await waitFor(
      () => bodiesTo('/once').some((body) => body.data.sku === 'MARKER-8'),
      'the marker delivery',
    );

    expect(bodiesTo('/once').filter((body) => body.data.sku === 'DUP-7')).toHaveLength(1);
    const { deliveries } = await suite.deliveriesOf(TENANT, id);
    expect(deliveries.map((d) => d.event)).toEqual(['product.created', 'product.created']);
  });

  it('ignores a domain.product.created: that subject carries no fact any more', async () => {
    const { id } = await suite.subscribe(TENANT, '/stray', ['product.created']);
    const stray = defineEvent('domain.product.created', DomainEventPayload);
    await suite.h.service.publisher.publish(stray, {
      tenantId: TENANT,
      payload: { data_json: JSON.stringify({ id: 99, sku: 'STRAY-99' }) },
    });
    // A later DOMAIN event: once it is delivered, the DOMAIN consumer has handled the stray one.
    await suite.subscribe(TENANT, '/stray-marker', ['customer.created']);
    await suite.h.publish(TENANT, 'customer.created', { id: 1 });
    await waitFor(() => bodiesTo('/stray-marker')[0], 'the DOMAIN marker delivery');
    await suite.h.publishProduct(TENANT, { product_id: 100, sku: 'AFTER-100' });
    await waitFor(
      () => bodiesTo('/stray').some((body) => body.data.sku === 'AFTER-100'),
      'the record delivery',
    );
    expect(bodiesTo('/stray').map((body) => body.data.sku)).toEqual(['AFTER-100']);
    expect((await suite.deliveriesOf(TENANT, id)).total).toBe(1);
  });
});

describe('the catalog.product.created consumer on its first start', () => {
  const suite = useReceiverSuite();

  it('starts at the next event: products already in the stream had their webhook from domain.product.created', async () => {
    await suite.subscribe(TENANT, '/first-start', ['product.created']);
    await suite.h.stopReplicas();
    // As before this version: the stream holds a product, and the consumer does not exist yet.
    const nats = await connectNats(suite.h.infra.natsUrl, 'first-start-test');
    try {
      const manager = await nats.jetstreamManager();
      await manager.consumers.delete('CATALOG', 'outbound-delivery-product-created');
      await new EventPublisher(nats.jetstream()).publish(productCreated, {
        tenantId: TENANT,
        payload: productPayload({ product_id: 1, sku: 'BEFORE-1' }),
      });
    } finally {
      await nats.close();
    }

    const replica = await suite.h.startReplica();
    await replica.publisher.publish(productCreated, {
      tenantId: TENANT,
      payload: productPayload({ product_id: 2, sku: 'AFTER-2' }),
    });
    const skus = () =>
      suite.bodiesTo<{ data: { sku: string } }>('/first-start').map((body) => body.data.sku);
    await waitFor(() => skus().includes('AFTER-2') || undefined, 'the later product');
    expect(skus()).toEqual(['AFTER-2']);
  });
});
