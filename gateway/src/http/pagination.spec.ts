import { describe, expect, it } from 'vitest';
import { flatEnvelope, linksMetaEnvelope, pageMeta } from './pagination.js';

describe('pagination envelopes', () => {
  it('computes from/to/last_page, with null from/to on an empty page', () => {
    expect(pageMeta(2, 10, 25, 10)).toEqual({
      current_page: 2,
      last_page: 3,
      per_page: 10,
      total: 25,
      from: 11,
      to: 20,
    });
    expect(pageMeta(1, 10, 0, 0)).toEqual({
      current_page: 1,
      last_page: 1,
      per_page: 10,
      total: 0,
      from: null,
      to: null,
    });
  });

  it('keeps filters and sort in every page URL, with null prev/next at the ends', () => {
    const meta = pageMeta(1, 10, 25, 10);
    const body = linksMetaEnvelope(
      [1],
      meta,
      'https://acme.example.com/api/x',
      'filter%5Bsearch%5D=ab&sort=-created_at&page=1',
    );
    expect(body.links.prev).toBeNull();
    expect(body.links.next).toBe(
      'https://acme.example.com/api/x?filter%5Bsearch%5D=ab&sort=-created_at&page=2',
    );
    expect(body.links.last).toContain('page=3');
    expect(body.meta.path).toBe('https://acme.example.com/api/x');
  });

  it('builds the flat envelope with Laravel-style links and extra top-level fields', () => {
    const body = flatEnvelope(
      ['a'],
      pageMeta(3, 1, 3, 1),
      'https://t.example/api/v2/products',
      'sort=sku',
      { unfiltered_total: 9 },
    );
    expect(body).toMatchObject({
      current_page: 3,
      last_page: 3,
      next_page_url: null,
      unfiltered_total: 9,
      prev_page_url: 'https://t.example/api/v2/products?sort=sku&page=2',
    });
    expect(body.links.filter((link) => link.active).map((link) => link.label)).toEqual(['3']);
  });
});
