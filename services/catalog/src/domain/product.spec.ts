import { describe, expect, it } from 'vitest';
import { toProductQuery, toProductSnapshot } from './product.js';

const at = new Date(Date.UTC(2026, 0, 1));
const record = {
  product_id: 7,
  sku: ' SKU-7 ',
  name: 'Seven',
  type: 'standard',
  barcode: '',
  price: '007.50',
};

describe('toProductSnapshot', () => {
  it('trims, normalizes the price, nulls an empty barcode and defaults the times', () => {
    expect(toProductSnapshot(record, at)).toEqual({
      product: {
        id: 7,
        sku: 'SKU-7',
        name: 'Seven',
        type: 'standard',
        barcode: null,
        price: '7.50',
        created_at: at,
        updated_at: at,
      },
    });
  });

  it('reports every problem of a record that can never be shown', () => {
    const checked = toProductSnapshot(
      { ...record, product_id: 0, sku: '', price: '1.5e3', name: 'x'.repeat(1001) },
      at,
    );
    expect(checked).toEqual({
      problems: [
        'product_id is not a positive integer',
        'sku is empty',
        'name is longer than 1000',
        'price is not a decimal with at most 11 digits and 4 decimals',
      ],
    });
  });
});

describe('toProductQuery', () => {
  const base = { search: '', skus: [], sort: [] };

  it('defaults to -created_at with -id as tiebreak, page 1 of 10', () => {
    expect(toProductQuery(base)).toEqual({
      query: {
        search: '',
        skus: [],
        sort: [
          { field: 'created_at', descending: true },
          { field: 'id', descending: true },
        ],
        page: 1,
        perPage: 10,
      },
    });
  });

  it('keeps the first of repeated sort keys and de-duplicates skus', () => {
    const result = toProductQuery({
      ...base,
      skus: ['A', ' A', '', 'B'],
      sort: [
        { field: 'sku', descending: false },
        { field: 'sku', descending: true },
      ],
    });
    expect(result).toMatchObject({
      query: {
        skus: ['A', 'B'],
        sort: [
          { field: 'sku', descending: false },
          { field: 'id', descending: false },
        ],
      },
    });
  });

  it('names every field at fault', () => {
    const result = toProductQuery({
      search: 'x'.repeat(256),
      skus: ['y'.repeat(256)],
      sort: [{ field: 'price', descending: false }],
      page: { page: 0, per_page: 1001 },
    });
    expect('violations' in result && result.violations.map((v) => v.field)).toEqual([
      'sort',
      'per_page',
      'skus',
      'search',
    ]);
  });
});
