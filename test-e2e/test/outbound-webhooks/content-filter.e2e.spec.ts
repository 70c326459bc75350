import { describe, expect, it } from 'vitest';
import { npmRunEmit } from '../../src/index.js';
import { PATH, poll, subscriptionHarness } from './subscription-harness.js';

/** Content filters through the gateway (ADR 0418). */
describe('a subscription with a content filter', () => {
  const h = subscriptionHarness();

  const emitProduct = (id: number, sku: string) =>
    npmRunEmit(h.system, 'catalog.product.created', h.owner.tenant.slug, {
      product_id: id,
      sku,
      name: `Product ${id}`,
      price: '1.00',
    });

  it('receives only the products whose SKU starts with ACME-, and shows its filter', async () => {
    const filter = { sku: { $startsWith: 'ACME-' } };
    const created = await h.create(h.owner, {
      url: `${h.receiverUrl}/acme-only`,
      events: ['product.created'],
      filter,
    });
    expect(created.status).toBe(201);
    const { id } = created.body.data as { id: number };
    expect(created.body.data.filter).toEqual(filter);
    const all = await h.create(h.owner, {
      url: `${h.receiverUrl}/every-product`,
      events: ['product.created'],
    });
    expect(all.body.data.filter).toBeNull();

    await emitProduct(901, 'OTHER-1');
    await emitProduct(902, 'ACME-2');
    await emitProduct(903, 'acme-3');
    const skusAt = (path: string) =>
      h.received
        .filter((r) => r.path === path)
        .map((r) => (JSON.parse(r.body) as { data: { sku: string } }).data.sku)
        .sort();
    await poll(() => (skusAt('/every-product').length === 3 ? true : undefined));
    await poll(() => (skusAt('/acme-only').length > 0 ? true : undefined));
    expect(skusAt('/acme-only')).toEqual(['ACME-2']);
    const log = await h.owner.request('GET', `${PATH}/${id}/deliveries`);
    expect(log.body.total).toBe(1);

    expect((await h.owner.request('GET', `${PATH}/${id}`)).body.data.filter).toEqual(filter);
    const cleared = await h.owner.request('PATCH', `${PATH}/${id}`, { filter: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.filter).toBeNull();
  });

  it('refuses a bad filter with the 422 envelope naming the bad part, and creates nothing', async () => {
    const before = (await h.owner.request('GET', PATH)).body.total as number;
    for (const [filter, message] of [
      [{ sku: { $regex: '^A' } }, '$regex at filter.sku is not supported'],
      [{ __proto__: null, 'a.__proto__': 1 }, 'is not a field path'],
      ['{"sku":1}', 'The filter field must be an object.'],
      [[{ sku: 1 }], 'The filter field must be an object.'],
    ] as const) {
      const refused = await h.create(h.owner, {
        url: `${h.receiverUrl}/refused`,
        events: ['product.created'],
        filter,
      });
      expect(refused.status, JSON.stringify(filter)).toBe(422);
      expect(refused.body.errors.filter[0]).toContain(message);
    }
    // The service's rule and the gateway's type check answer in the same 422 as other fields.
    const both = await h.create(h.owner, {
      url: 'ftp://nowhere',
      events: ['product.created'],
      filter: { $where: 'true' },
    });
    expect(Object.keys(both.body.errors).sort()).toEqual(['filter', 'url']);
    expect((await h.owner.request('GET', PATH)).body.total).toBe(before);
  });
});
