import { status as GrpcStatus } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  eventually,
  failureOf,
  page,
  product,
  publishers,
  startHarness,
  type Harness,
} from './harness.js';

let h: Harness;
const tenant = `products-${Date.now()}`;
const other = `${tenant}-other`;

const list = (
  request: Partial<Parameters<Harness['client']['call']['listProducts']>[0]> = {},
  as_ = tenant,
) => as(as_, () => h.client.call.listProducts({ search: '', skus: [], sort: [], ...request }));

beforeAll(async () => {
  h = await startHarness();
  const bus = publishers(h.service);
  // 25 products; names and skus chosen so every sort gives a different order.
  for (let id = 1; id <= 25; id++) {
    await bus.productCreated(
      tenant,
      product(id, {
        name: `${String.fromCharCode(90 - id)} item`,
        sku: `SKU-${String((id * 7) % 25).padStart(3, '0')}`,
        // Two rows share a created_at: the id breaks the tie.
        created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, id === 25 ? 24 : id)),
        updated_at: new Date(Date.UTC(2026, 0, 2, 0, 0, 30 - id)),
      }),
    );
  }
  await bus.productCreated(other, product(1, { sku: 'OTHER-1', name: 'Other tenant' }));
  await eventually(async () => expect((await list()).page_info!.total).toBe(25));
  await eventually(async () => expect((await list({}, other)).page_info!.total).toBe(1));
}, 60_000);
afterAll(() => h?.stop());

describe('ListProducts', () => {
  it('pages by -created_at by default, ties by -id, with exact page info', async () => {
    const first = await list({ page: page(1, 10) });
    expect(first.products.map((row) => row.id)).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
    expect(first.page_info).toEqual({
      current_page: 1,
      last_page: 3,
      per_page: 10,
      total: 25,
      from: 1,
      to: 10,
    });
    expect(first.unfiltered_total).toBe(25);
    const last = await list({ page: page(3, 10) });
    expect(last.products.map((row) => row.id)).toEqual([5, 4, 3, 2, 1]);
    expect(last.page_info).toMatchObject({ from: 21, to: 25 });
    const beyond = await list({ page: page(9, 10) });
    expect(beyond.products).toEqual([]);
    expect(beyond.page_info).toEqual({
      current_page: 9,
      last_page: 3,
      per_page: 10,
      total: 25,
      from: 0,
      to: 0,
    });
  });

  it('returns every item field, price as the decimal string', async () => {
    const { products } = await list({ skus: ['SKU-007'] });
    expect(products).toEqual([
      {
        id: 1,
        sku: 'SKU-007',
        name: 'Y item',
        type: 'standard',
        barcode: 'BAR1',
        price: '1.50',
        created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, 1)),
        updated_at: new Date(Date.UTC(2026, 0, 2, 0, 0, 29)),
      },
    ]);
  });

  it.each(['id', 'sku', 'name', 'created_at', 'updated_at'] as const)(
    'sorts by %s both ways, the id breaking ties',
    async (field) => {
      const ascending = (await list({ sort: [{ field, descending: false }], page: page(1, 100) }))
        .products;
      const descending = (await list({ sort: [{ field, descending: true }], page: page(1, 100) }))
        .products;
      const key = (row: (typeof ascending)[number]) => {
        const value = row[field as keyof typeof row];
        return value instanceof Date ? value.getTime() : value;
      };
      const expected = [...ascending].sort((a, b) => {
        const [x, y] = [key(a)!, key(b)!];
        return x < y ? -1 : x > y ? 1 : a.id - b.id;
      });
      expect(ascending.map((row) => row.id)).toEqual(expected.map((row) => row.id));
      expect(ascending).toHaveLength(25);
      // Descending reverses the whole order, ties included (the id follows the last key's direction).
      expect(descending.map((row) => row.id)).toEqual(ascending.map((row) => row.id).reverse());
    },
  );

  it('filters by a case-insensitive literal substring of sku or name, keeping unfiltered_total', async () => {
    const byName = await list({ search: 'x ITEM' });
    expect(byName.products.map((row) => row.name)).toEqual(['X item']);
    expect(byName.page_info!.total).toBe(1);
    expect(byName.unfiltered_total).toBe(25);
    const bySku = await list({ search: 'sku-01', sort: [{ field: 'sku', descending: false }] });
    expect(bySku.products.map((row) => row.sku)).toEqual([
      'SKU-010',
      'SKU-011',
      'SKU-012',
      'SKU-013',
      'SKU-014',
      'SKU-015',
      'SKU-016',
      'SKU-017',
      'SKU-018',
      'SKU-019',
    ]);
    // Regex characters are literal: ".*" matches nothing here instead of everything.
    const literal = await list({ search: '.*' });
    expect(literal.products).toEqual([]);
    expect(literal.page_info!.total).toBe(0);
    expect(literal.unfiltered_total).toBe(25);
  });

  it('filters by an exact list of skus', async () => {
    const result = await list({
      skus: ['SKU-007', 'SKU-014', 'SKU-01', 'sku-021'],
      sort: [{ field: 'sku', descending: false }],
    });
    expect(result.products.map((row) => row.sku)).toEqual(['SKU-007', 'SKU-014']);
    expect(result.page_info!.total).toBe(2);
    expect(result.unfiltered_total).toBe(25);
  });

  it('rejects unknown sorts and bad pages with field violations', async () => {
    const failure = await failureOf(list({ sort: [{ field: 'price', descending: false }] }));
    expect(failure.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(failure.fieldViolations.map((violation) => violation.field)).toEqual(['sort']);
    const pages = await failureOf(list({ page: { page: -1, per_page: 5000 } }));
    expect(pages.fieldViolations.map((violation) => violation.field)).toEqual(['page', 'per_page']);
    const skus = await failureOf(list({ skus: Array.from({ length: 501 }, (_, i) => `S${i}`) }));
    expect(skus.fieldViolations.map((violation) => violation.field)).toEqual(['skus']);
  });

  it("never shows another tenant's products", async () => {
    const mine = await list({ search: 'Other tenant' });
    expect(mine.products).toEqual([]);
    const theirs = await list({}, other);
    expect(theirs.products.map((row) => row.sku)).toEqual(['OTHER-1']);
    expect(theirs.unfiltered_total).toBe(1);
    const nobody = await list({}, `${tenant}-nobody`);
    expect(nobody.page_info).toMatchObject({ total: 0, last_page: 1, from: 0, to: 0 });
  });
});
