import { describe, expect, it } from 'vitest';
import { readQuery } from '../../http/route-input.js';
import { ALERTS_QUERY, alertsRequest } from './alerts-query.js';

/** What the alerts route reads from a query: the request, or the field errors of its 422. */
function parseAlertsQuery(query: unknown) {
  const { values, errors } = readQuery(ALERTS_QUERY, query);
  return Object.keys(errors).length > 0
    ? { ok: false as const, errors }
    : { ok: true as const, request: alertsRequest(values) };
}

describe('parseAlertsQuery', () => {
  it('defaults to every alert, page 1 of 10', () => {
    expect(parseAlertsQuery({})).toEqual({
      ok: true,
      request: { unread_only: false, page: { page: 1, per_page: 10 } },
    });
  });

  it('reads filter[unread] in both query shapes, and paging', () => {
    for (const query of [
      { 'filter[unread]': 'true', page: '2', per_page: '100' },
      { filter: { unread: '1' }, page: '2', per_page: '100' },
    ])
      expect(parseAlertsQuery(query)).toEqual({
        ok: true,
        request: { unread_only: true, page: { page: 2, per_page: 100 } },
      });
    expect(parseAlertsQuery({ 'filter[unread]': 'false' })).toMatchObject({
      request: { unread_only: false },
    });
  });

  it('refuses anything but plain positive integers, and unknown filter values', () => {
    for (const [query, field] of [
      [{ page: '1e9' }, 'page'],
      [{ page: '1.5' }, 'page'],
      [{ page: '0' }, 'page'],
      [{ page: '-1' }, 'page'],
      [{ page: ['1', '2'] }, 'page'],
      [{ page: '99999999999' }, 'page'],
      [{ per_page: '101' }, 'per_page'],
      [{ per_page: '0x10' }, 'per_page'],
      [{ 'filter[unread]': 'yes' }, 'filter.unread'],
      [{ 'filter[unread]': ['true', 'false'] }, 'filter.unread'],
    ] as const) {
      const parsed = parseAlertsQuery(query);
      expect(parsed.ok, JSON.stringify(query)).toBe(false);
      if (!parsed.ok) expect(Object.keys(parsed.errors)).toEqual([field]);
    }
  });
});
