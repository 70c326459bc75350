import { describe, expect, it } from 'vitest';
import { CATALOG_EVENTS } from './catalog.js';

const byName = (name: string) => CATALOG_EVENTS.find((event) => event.name === name)!;

describe('catalog emittable events', () => {
  it('declares the six catalog events on the CATALOG stream', () => {
    expect(CATALOG_EVENTS.map((event) => [event.name, event.type.subject])).toEqual([
      ['catalog.product.created', 'catalog.product.created'],
      ['catalog.product.updated', 'catalog.product.updated'],
      ['catalog.product.deleted', 'catalog.product.deleted'],
      ['catalog.purchase_invoice.created', 'catalog.purchase_invoice.created'],
      ['catalog.purchase_invoice.updated', 'catalog.purchase_invoice.updated'],
      ['catalog.purchase_invoice.deleted', 'catalog.purchase_invoice.deleted'],
    ]);
    expect(new Set(CATALOG_EVENTS.map((event) => event.stream.name))).toEqual(new Set(['CATALOG']));
  });

  it('turns flat JSON into the proto payload, which encodes and decodes unchanged', () => {
    const event = byName('catalog.product.created');
    const payload = event.data.parse({
      product_id: 7,
      sku: 'SKU-7',
      name: 'Seven',
      price: '7.50',
      created_at: '2026-01-02T03:04:05Z',
      version: 3,
    });
    expect(payload).toEqual({
      product: {
        product_id: 7,
        sku: 'SKU-7',
        name: 'Seven',
        type: 'standard',
        price: '7.50',
        created_at: new Date('2026-01-02T03:04:05Z'),
      },
      version: 3,
    });
    const bytes = event.type.codec.encode(payload).finish();
    expect(event.type.codec.decode(bytes)).toMatchObject(payload as object);
  });

  it('defaults the version to now, so a later emit wins', () => {
    const before = Date.now();
    const payload = byName('catalog.purchase_invoice.deleted').data.parse({
      purchase_invoice_id: 4,
    }) as {
      version: number;
    };
    expect(payload.version).toBeGreaterThanOrEqual(before);
  });

  it.each([
    ['catalog.product.created', { product_id: 1, sku: 'A', price: 19.99 }],
    ['catalog.product.created', { product_id: 1, sku: 'A', price: '1e3' }],
    ['catalog.product.created', { product_id: 1, sku: 'A', price: '1', colour: 'red' }],
    [
      'catalog.purchase_invoice.created',
      {
        purchase_invoice_id: 1,
        status: 'open',
        currency: 'USD',
        total: '1',
        due_date: '01/02/2026',
      },
    ],
    [
      'catalog.purchase_invoice.updated',
      { purchase_invoice_id: 0, status: 'open', currency: 'USD', total: '1' },
    ],
    ['catalog.product.deleted', { product_id: -1 }],
  ])('refuses bad --data for %s: %j', (name, data) => {
    expect(byName(name).data.safeParse(data).success).toBe(false);
  });
});
