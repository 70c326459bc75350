import { describe, expect, it } from 'vitest';
import type { FieldErrors, InputField } from './input-field.js';
import { page } from './page-fields.js';
import { query } from './query-fields.js';

function read<T>(input: InputField<T>, value: unknown, name: string) {
  const errors: FieldErrors = {};
  return { value: input.read(value, name, errors), errors };
}

describe('query fields: each rule answers with its exact message', () => {
  it('search: a trimmed string, at most max characters', () => {
    const search = query.search({ max: 3 });
    expect(search.inFilter).toBe(true);
    expect(read(search, ' ab ', 'filter.search')).toEqual({ value: 'ab', errors: {} });
    expect(read(search, ['a', 'b'], 'filter.search').errors).toEqual({
      'filter.search': ['The filter.search field must be a string.'],
    });
    expect(read(search, 'abcd', 'filter.search').errors).toEqual({
      'filter.search': ['The filter.search field must not be greater than 3 characters.'],
    });
  });

  it('list: comma lists, items checked, limits', () => {
    const plain = query.list({ description: '' });
    expect(read(plain, ['a,b', 'b', ' '], 'filter.x').value).toEqual(['a', 'b']);
    expect(read(plain, { a: 'b' }, 'filter.x').errors).toEqual({
      'filter.x': ['The filter.x field must be a comma-separated list.'],
    });
    const checked = query.list({
      description: '',
      each: (item) => (item === 'ok' ? 'OK' : undefined),
      rejected: (bad) => `Bad: ${bad.join(', ')}`,
    });
    expect(read(checked, 'ok,ok', 'filter.x')).toEqual({ value: ['OK'], errors: {} });
    expect(read(checked, 'ok,no,nope', 'filter.x').errors).toEqual({
      'filter.x': ['Bad: no, nope'],
    });
    const limited = query.list({ description: '', limit: { maxItems: 1, itemMax: 2 } });
    expect(read(limited, 'a,b', 'filter.sku').errors).toEqual({
      'filter.sku': ['The filter.sku field must list at most 1 values of at most 2 characters.'],
    });
  });

  it('day: m/d/Y (and YYYY-MM-DD when allowed)', () => {
    expect(read(query.day(), '03/01/2024', 'filter.date_from').value).toBe('2024-03-01');
    expect(read(query.day(), '2024-03-01', 'filter.date_from').errors).toEqual({
      'filter.date_from': ['The filter.date_from field must match the format m/d/Y.'],
    });
    expect(read(query.day({ iso: true }), '2024-03-01', 'filter.date_to').value).toBe('2024-03-01');
  });

  it('flag: true/1/false/0', () => {
    expect(read(query.flag(), '1', 'filter.unread').value).toBe(true);
    expect(read(query.flag(), 'yes', 'filter.unread').errors).toEqual({
      'filter.unread': ['The filter.unread field must be true or false.'],
    });
  });

  it('sort, in each list form', () => {
    const allowed = ['id', 'name'];
    expect(read(query.sort(allowed, 'sort(s)'), '-id,name', 'sort').value).toEqual([
      { field: 'id', descending: true },
      { field: 'name', descending: false },
    ]);
    expect(read(query.sort(allowed, 'sort(s)'), 'x,-id,-y', 'sort').errors).toEqual({
      sort: ['Requested sort(s) `x, -y` is not allowed. Allowed sort(s) are `id, name`.'],
    });
    expect(read(query.sort(allowed, 'one-of'), '-name', 'sort').value).toEqual([
      { field: 'name', descending: true },
    ]);
    expect(read(query.sort(allowed, 'one-of'), 'id,', 'sort').errors).toEqual({
      sort: ['The sort field must be one of id, name, optionally with a leading minus.'],
    });
    expect(read(query.sort(allowed, 'single'), '--id', 'sort').errors).toEqual({
      sort: ['Requested sort `--id` is not allowed. Allowed sorts are `id, name`.'],
    });
    expect(read(query.sort(allowed, 'single'), ['id'], 'sort').errors).toEqual({
      sort: ['Requested sort `[array]` is not allowed. Allowed sorts are `id, name`.'],
    });
  });

  it('page numbers, in each list form', () => {
    const counted = page.counted({ fallback: 1, max: 100 });
    expect(read(counted, '1.5', 'per_page').errors).toEqual({
      per_page: ['The per_page field must be an integer.'],
    });
    expect(read(counted, '0', 'page').errors).toEqual({
      page: ['The page field must be at least 1.'],
    });
    expect(read(counted, '101', 'page').errors).toEqual({
      page: ['The page field must not be greater than 100.'],
    });
    expect(read(page.between({ fallback: 1, max: 9 }), '10', 'page').errors).toEqual({
      page: ['The page field must be an integer between 1 and 9.'],
    });
    const positive = page.positive({ fallback: 10, max: 100 });
    expect(read(positive, '0', 'per_page').errors).toEqual({
      per_page: ['The per page must be a positive integer.'],
    });
    expect(read(positive, '101', 'per_page').errors).toEqual({
      per_page: ['The per page may not be greater than 100.'],
    });
    expect(read(positive, undefined, 'per_page').value).toBe(10);
  });
});
