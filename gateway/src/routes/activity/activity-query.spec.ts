import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { readQuery } from '../../http/route-input.js';
import { ACTIVITY_MAX_PER_PAGE, ACTIVITY_QUERY, activityRequest } from './activity-query.js';

/** What the activity route reads from a query: the request, or the field errors of its 422. */
function parseActivityQuery(query: unknown, instanceId: number) {
  const { values, errors } = readQuery(ACTIVITY_QUERY, query);
  return Object.keys(errors).length > 0
    ? { ok: false as const, errors }
    : { ok: true as const, request: activityRequest(values, instanceId) };
}

function request(query: unknown) {
  const parsed = parseActivityQuery(query, 5);
  if (!parsed.ok) throw new Error(`unexpected errors ${JSON.stringify(parsed.errors)}`);
  return parsed.request;
}

function errors(query: unknown) {
  const parsed = parseActivityQuery(query, 5);
  if (parsed.ok) throw new Error('expected errors');
  return parsed.errors;
}

describe('parseActivityQuery', () => {
  it('defaults to page 1 of 10, service-default sort, no filters, scoped to the instance', () => {
    expect(request({})).toEqual({
      integration_instance_id: 5,
      history_instance_ids: [],
      event_types: [],
      causer_ids: [],
      search: '',
      tracking_number: '',
      created: {},
      sort: [],
      page: { page: 1, per_page: 10 },
    });
    expect(request(undefined).page).toEqual({ page: 1, per_page: 10 });
  });

  it("reads Fastify's flat keys", () => {
    const parsed = request({
      'filter[event_type]': 'webhook_processed, webhook_failed,,webhook_failed',
      'filter[causer_id]': '7,8',
      'filter[search]': '  a.b*  ',
      'filter[date_from]': '03/01/2024',
      'filter[date_to]': '03/31/2024',
      sort: '-event',
      page: '2',
      per_page: '25',
    });
    expect(parsed).toEqual({
      integration_instance_id: 5,
      history_instance_ids: [],
      event_types: ['webhook_processed', 'webhook_failed'],
      causer_ids: ['7', '8'],
      search: 'a.b*',
      tracking_number: '',
      created: { from: '2024-03-01', to: '2024-03-31' },
      sort: [{ field: 'event', descending: true }],
      page: { page: 2, per_page: 25 },
    });
  });

  it('reads the nested form a qs-style parser produces', () => {
    const parsed = request({
      filter: {
        event_type: 'connected',
        causer_id: ['7', '9,10'],
        date_to: '01/02/2024',
        search: 'x',
      },
    });
    expect(parsed).toMatchObject({
      event_types: ['connected'],
      causer_ids: ['7', '9', '10'],
      created: { to: '2024-01-02' },
      search: 'x',
    });
  });

  it('prefers the flat key when both forms are present, and combines repeated keys', () => {
    expect(
      request({ 'filter[event_type]': ['a', 'b,c'], filter: { event_type: 'z' } }).event_types,
    ).toEqual(['a', 'b', 'c']);
  });

  it('accepts every allowed sort, ascending and descending, comma-separated or repeated', () => {
    expect(request({ sort: 'created_at' }).sort).toEqual([
      { field: 'created_at', descending: false },
    ]);
    expect(request({ sort: '-id' }).sort).toEqual([{ field: 'id', descending: true }]);
    expect(request({ sort: '-created_at,id' }).sort).toEqual([
      { field: 'created_at', descending: true },
      { field: 'id', descending: false },
    ]);
    expect(request({ sort: ['event', '-id'] }).sort).toHaveLength(2);
    expect(request({ sort: '' }).sort).toEqual([]);
  });

  it('refuses unknown sorts with a 422 message naming the allowed ones', () => {
    expect(errors({ sort: '-description,id' })).toEqual({
      sort: [
        'Requested sort(s) `-description` is not allowed. Allowed sort(s) are `created_at, event, id`.',
      ],
    });
    expect(errors({ sort: '--id' }).sort).toHaveLength(1);
  });

  it('refuses dates not in m/d/Y, per field, with the Laravel message', () => {
    expect(errors({ 'filter[date_from]': '2024-03-01', 'filter[date_to]': '02/30/2024' })).toEqual({
      'filter.date_from': ['The filter.date_from field must match the format m/d/Y.'],
      'filter.date_to': ['The filter.date_to field must match the format m/d/Y.'],
    });
    expect(errors({ filter: { date_from: ['01/01/2024'] } })).toEqual({
      'filter.date_from': ['The filter.date_from field must match the format m/d/Y.'],
    });
    expect(request({ 'filter[date_from]': '' }).created).toEqual({});
  });

  it('validates page and per_page as positive integers with a per_page cap', () => {
    expect(errors({ page: '0' })).toEqual({ page: ['The page field must be at least 1.'] });
    expect(errors({ page: '-1' })).toEqual({ page: ['The page field must be an integer.'] });
    expect(errors({ page: '1.5', per_page: 'ten' })).toEqual({
      page: ['The page field must be an integer.'],
      per_page: ['The per_page field must be an integer.'],
    });
    expect(errors({ per_page: String(ACTIVITY_MAX_PER_PAGE + 1) })).toEqual({
      per_page: [`The per_page field must not be greater than ${ACTIVITY_MAX_PER_PAGE}.`],
    });
    expect(errors({ page: '99999999999' }).page).toHaveLength(1);
    expect(errors({ page: ['1', '2'] })).toEqual({ page: ['The page field must be an integer.'] });
    expect(request({ page: '3', per_page: String(ACTIVITY_MAX_PER_PAGE) }).page).toEqual({
      page: 3,
      per_page: ACTIVITY_MAX_PER_PAGE,
    });
    expect(request({ per_page: '1' }).page).toEqual({ page: 1, per_page: 1 });
  });

  it('refuses non-string search and oversized search', () => {
    expect(errors({ 'filter[search]': ['a', 'b'] })).toEqual({
      'filter.search': ['The filter.search field must be a string.'],
    });
    expect(errors({ 'filter[search]': 'x'.repeat(256) })['filter.search']).toEqual([
      'The filter.search field must not be greater than 255 characters.',
    ]);
  });

  it('refuses object values where a list is expected', () => {
    expect(errors({ filter: { event_type: { a: 'b' } } })).toEqual({
      'filter.event_type': ['The filter.event_type field must be a comma-separated list.'],
    });
  });

  it('collects every error at once and ignores unknown parameters', () => {
    expect(
      Object.keys(
        errors({ sort: 'x', page: 'y', 'filter[date_to]': 'z', 'filter[nope]': '1', extra: '2' }),
      ).sort(),
    ).toEqual(['filter.date_to', 'page', 'sort']);
    expect(request({ 'filter[nope]': '1', include: 'causer' }).event_types).toEqual([]);
  });

  it("parses what Fastify's default querystring parser hands over", async () => {
    const app = Fastify();
    app.get('/activity', async (incoming) => parseActivityQuery(incoming.query, 5));
    const response = await app.inject({
      url: '/activity?filter[event_type]=connected,updated&filter%5Bcauser_id%5D=7&filter[search]=a.b*&filter[date_from]=03/01/2024&sort=-id&sort=event&per_page=2',
    });
    await app.close();
    expect(response.json()).toEqual({
      ok: true,
      request: {
        integration_instance_id: 5,
        history_instance_ids: [],
        event_types: ['connected', 'updated'],
        causer_ids: ['7'],
        search: 'a.b*',
        tracking_number: '',
        created: { from: '2024-03-01' },
        sort: [
          { field: 'id', descending: true },
          { field: 'event', descending: false },
        ],
        page: { page: 1, per_page: 2 },
      },
    });
  });
});
