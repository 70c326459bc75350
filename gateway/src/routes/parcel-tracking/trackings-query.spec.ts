import { describe, expect, it } from 'vitest';
import { readQuery } from '../../http/route-input.js';
import { TRACKINGS_MAX_PER_PAGE, TRACKINGS_QUERY, trackingsRequest } from './trackings-query.js';

/** What the trackings route reads from a query: the request, or the field errors of its 422. */
function parseTrackingsQuery(query: unknown, instanceId: number) {
  const { values, errors } = readQuery(TRACKINGS_QUERY, query);
  return Object.keys(errors).length > 0
    ? { ok: false as const, errors }
    : { ok: true as const, request: trackingsRequest(values, instanceId) };
}

describe('parseTrackingsQuery', () => {
  it('defaults: -created_at, page 1, 10 per page, no filters', () => {
    expect(parseTrackingsQuery({}, 7)).toEqual({
      ok: true,
      request: {
        integration_instance_id: 7,
        search: '',
        delivery_statuses: [],
        carrier_codes: [],
        trackable_types: [],
        created_from: undefined,
        created_before: undefined,
        sort_field: 'created_at',
        sort_descending: true,
        page: 1,
        per_page: 10,
        stalled: false,
        late: false,
      },
    });
  });

  it('reads flat and nested filter keys, maps type names to slugs, dates to a half-open UTC range', () => {
    const parsed = parseTrackingsQuery(
      {
        'filter[delivery_status]': 'delivered, in_transit,delivered',
        filter: { trackable_type: '\\App\\Models\\Rma,inbound_shipment' },
        'filter[carrier_code]': ['100002', '3011'],
        'filter[date_from]': '01/02/2026',
        'filter[date_to]': '01/02/2026',
        sort: 'last_event_at',
        per_page: String(TRACKINGS_MAX_PER_PAGE),
      },
      1,
    );
    expect(parsed.ok && parsed.request).toMatchObject({
      delivery_statuses: ['delivered', 'in_transit'],
      trackable_types: ['rma', 'inbound_shipment'],
      carrier_codes: [100002, 3011],
      created_from: new Date('2026-01-02T00:00:00Z'),
      created_before: new Date('2026-01-03T00:00:00Z'),
      sort_field: 'last_event_at',
      sort_descending: false,
      per_page: TRACKINGS_MAX_PER_PAGE,
    });
  });

  it('collects every bad field at once', () => {
    const parsed = parseTrackingsQuery(
      {
        'filter[delivery_status]': 'lost',
        'filter[carrier_code]': '12x',
        'filter[date_from]': '13/01/2026',
        sort: 'created_at,id',
        page: '0',
        per_page: '1e3',
        'filter[search]': { nested: 'x' },
      },
      1,
    );
    expect(parsed.ok).toBe(false);
    expect(Object.keys(!parsed.ok ? parsed.errors : {}).sort()).toEqual([
      'filter.carrier_code',
      'filter.date_from',
      'filter.delivery_status',
      'filter.search',
      'page',
      'per_page',
      'sort',
    ]);
  });
});
