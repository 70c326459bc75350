import { describe, expect, it } from 'vitest';
import {
  flatEnvelope,
  flatPage,
  linksMetaEnvelope,
  NEXT_LABEL,
  pageMeta,
  pageWindow,
  PREVIOUS_LABEL,
} from './pagination.js';

const BASE = 'https://acme.example.com';
const PATH = `${BASE}/api/v2/products`;

/** A flat page over `total` rows of which the page holds `rowsOnPage`. */
function page(pageNumber: number, perPage: number, total: number, url = '/api/v2/products') {
  const rowsOnPage = Math.max(0, Math.min(perPage, total - (pageNumber - 1) * perPage));
  return flatPage({
    rows: Array.from({ length: rowsOnPage }, (_, index) => (pageNumber - 1) * perPage + index + 1),
    total,
    page: { page: pageNumber, perPage },
    baseUrl: BASE,
    url,
  });
}

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

  it('adds extra top-level fields to the flat envelope', () => {
    const body = flatEnvelope(['a'], pageMeta(3, 1, 3, 1), PATH, 'sort=sku', {
      unfiltered_total: 9,
    });
    expect(body.unfiltered_total).toBe(9);
    expect(body.prev_page_url).toBe(`${PATH}?sort=sku&page=2`);
  });
});

describe('flatPage: every field of the flat envelope', () => {
  it('first page', () => {
    expect(page(1, 10, 25)).toEqual({
      data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      current_page: 1,
      last_page: 3,
      per_page: 10,
      total: 25,
      from: 1,
      to: 10,
      first_page_url: `${PATH}?page=1`,
      last_page_url: `${PATH}?page=3`,
      next_page_url: `${PATH}?page=2`,
      prev_page_url: null,
      path: PATH,
      links: [
        { url: null, label: '« Previous', active: false },
        { url: `${PATH}?page=1`, label: '1', active: true },
        { url: `${PATH}?page=2`, label: '2', active: false },
        { url: `${PATH}?page=3`, label: '3', active: false },
        { url: `${PATH}?page=2`, label: 'Next »', active: false },
      ],
    });
  });

  it('middle page', () => {
    const body = page(2, 10, 25);
    expect(body).toMatchObject({
      current_page: 2,
      last_page: 3,
      per_page: 10,
      total: 25,
      from: 11,
      to: 20,
      first_page_url: `${PATH}?page=1`,
      last_page_url: `${PATH}?page=3`,
      next_page_url: `${PATH}?page=3`,
      prev_page_url: `${PATH}?page=1`,
      path: PATH,
    });
    expect(body.data).toHaveLength(10);
    expect(body.links[0]).toEqual({ url: `${PATH}?page=1`, label: PREVIOUS_LABEL, active: false });
    expect(body.links.at(-1)).toEqual({ url: `${PATH}?page=3`, label: NEXT_LABEL, active: false });
    expect(body.links.filter((link) => link.active)).toEqual([
      { url: `${PATH}?page=2`, label: '2', active: true },
    ]);
  });

  it('last (partial) page', () => {
    const body = page(3, 10, 25);
    expect(body).toMatchObject({
      data: [21, 22, 23, 24, 25],
      current_page: 3,
      last_page: 3,
      from: 21,
      to: 25,
      next_page_url: null,
      prev_page_url: `${PATH}?page=2`,
    });
    expect(body.links.at(-1)).toEqual({ url: null, label: 'Next »', active: false });
    expect(body.links.filter((link) => link.active).map((link) => link.label)).toEqual(['3']);
  });

  it('empty listing: one page, null from/to, null prev/next', () => {
    expect(page(1, 10, 0)).toEqual({
      data: [],
      current_page: 1,
      last_page: 1,
      per_page: 10,
      total: 0,
      from: null,
      to: null,
      first_page_url: `${PATH}?page=1`,
      last_page_url: `${PATH}?page=1`,
      next_page_url: null,
      prev_page_url: null,
      path: PATH,
      links: [
        { url: null, label: '« Previous', active: false },
        { url: `${PATH}?page=1`, label: '1', active: true },
        { url: null, label: 'Next »', active: false },
      ],
    });
  });

  it('past the end: empty data with the real totals, prev pointing back, no active page', () => {
    const body = page(7, 10, 25);
    expect(body).toMatchObject({
      data: [],
      current_page: 7,
      last_page: 3,
      per_page: 10,
      total: 25,
      from: null,
      to: null,
      last_page_url: `${PATH}?page=3`,
      next_page_url: null,
      prev_page_url: `${PATH}?page=6`,
    });
    expect(body.links.some((link) => link.active)).toBe(false);
    expect(body.links.map((link) => link.label)).toEqual([
      PREVIOUS_LABEL,
      '1',
      '2',
      '3',
      NEXT_LABEL,
    ]);
  });

  it('keeps filters, sort and per_page in every URL and replaces page in place', () => {
    const url = '/api/v2/products?filter%5Bsearch%5D=a%26b&sort=-sku&page=2&per_page=5';
    const body = page(2, 5, 12, url);
    const keep = (pageNumber: number) =>
      `${PATH}?filter%5Bsearch%5D=a%26b&sort=-sku&page=${pageNumber}&per_page=5`;
    expect(body.path).toBe(PATH);
    expect(body.first_page_url).toBe(keep(1));
    expect(body.last_page_url).toBe(keep(3));
    expect(body.prev_page_url).toBe(keep(1));
    expect(body.next_page_url).toBe(keep(3));
    expect(body.links.map((link) => link.url)).toEqual([
      keep(1),
      keep(1),
      keep(2),
      keep(3),
      keep(3),
    ]);
    for (const link of body.links) {
      expect(new URL(link.url!).searchParams.get('filter[search]')).toBe('a&b');
    }
  });
});

describe('pageWindow (Laravel UrlWindow, onEachSide 3)', () => {
  it('lists every page below 14 pages', () => {
    expect(pageWindow(1, 13)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('elides near the start, in the middle and near the end', () => {
    expect(pageWindow(1, 100)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, '...', 99, 100]);
    expect(pageWindow(50, 100)).toEqual([1, 2, '...', 47, 48, 49, 50, 51, 52, 53, '...', 99, 100]);
    expect(pageWindow(100, 100)).toEqual([1, 2, '...', 91, 92, 93, 94, 95, 96, 97, 98, 99, 100]);
  });

  it('renders elisions as inactive links without a URL', () => {
    const body = page(50, 1, 100);
    expect(body.links).toHaveLength(15);
    expect(body.links[3]).toEqual({ url: null, label: '...', active: false });
    expect(body.links.filter((link) => link.active).map((link) => link.label)).toEqual(['50']);
  });
});
