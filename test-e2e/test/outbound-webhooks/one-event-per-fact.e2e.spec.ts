import { verify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { npmRunEmit } from '../../src/index.js';
import { poll, subscriptionHarness } from './subscription-harness.js';

/** One fact, one event (ADR 0416): a product created is published once, as its catalog record. */
describe('one emit of a product', () => {
  const h = subscriptionHarness();

  it('appears in GET /api/v2/products and reaches a product.created subscriber, once', async () => {
    const created = await h.create(h.owner, {
      url: `${h.receiverUrl}/one-fact`,
      events: ['product.created'],
    });
    expect(created.status).toBe(201);
    const { id, secret } = created.body.data as { id: number; secret: string };

    const emitted = await npmRunEmit(h.system, 'catalog.product.created', h.owner.tenant.slug, {
      product_id: 314,
      sku: 'ONE-FACT-314',
      name: 'Pie tin',
      price: '3.14',
    });
    expect(emitted).toMatchObject({ subject: 'catalog.product.created', stream: 'CATALOG' });

    const listed = await poll(async () => {
      const response = await h.owner.request('GET', '/api/v2/products');
      return response.body.total === 1 ? response : undefined;
    });
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: 314, sku: 'ONE-FACT-314', name: 'Pie tin', price: '3.14' }),
    ]);

    const delivery = await poll(() => h.received.find((r) => r.path === '/one-fact'));
    expect(delivery.headers['x-svc-event']).toBe('product.created');
    expect(await verify(secret, delivery.body, delivery.headers['x-svc-signature'] as string)).toBe(
      true,
    );
    const body = JSON.parse(delivery.body) as { event: string; data: Record<string, unknown> };
    const [product] = listed.body.data as Array<Record<string, unknown>>;
    // The delivery's data is the product as the list shows it, plus its resource sequence.
    expect(body).toMatchObject({ event: 'product.created', data: product });
    expect(body.data.resource_sequence).toEqual(expect.any(Number));

    // Exactly one delivery: the fan-out has handled every event it was sent, and logged one.
    const log = await poll(async () => {
      const response = await h.owner.request('GET', `/api/webhook-subscriptions/${id}/deliveries`);
      const manager = await h.nats.jetstreamManager();
      const info = await manager.consumers.info('CATALOG', 'outbound-delivery-product-created');
      return info.num_pending + info.num_ack_pending === 0 && response.body.total >= 1
        ? response
        : undefined;
    });
    expect(log.body.total).toBe(1);
    expect(h.received.filter((r) => r.path === '/one-fact')).toHaveLength(1);
  });
});
