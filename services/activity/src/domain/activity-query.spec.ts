import { describe, expect, it } from 'vitest';
import {
  MAX_PER_PAGE,
  pageInfo,
  parseDateBound,
  toActivityQuery,
  withIdTiebreak,
  type ActivityQueryInput,
} from './activity-query.js';

const base: ActivityQueryInput = { event_types: [], causer_ids: [], search: '', sort: [] };

function ok(input: Partial<ActivityQueryInput>) {
  const result = toActivityQuery({ ...base, ...input });
  if (!('query' in result))
    throw new Error(`unexpected violations ${JSON.stringify(result.violations)}`);
  return result.query;
}

function violations(input: Partial<ActivityQueryInput>) {
  const result = toActivityQuery({ ...base, ...input });
  if (!('violations' in result)) throw new Error('expected violations');
  return result.violations.map((violation) => violation.field);
}

describe('parseDateBound', () => {
  it('turns a day into its first and last millisecond (UTC)', () => {
    expect(parseDateBound('2024-02-29', 'from')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseDateBound('2024-02-29', 'to')?.toISOString()).toBe('2024-02-29T23:59:59.999Z');
  });

  it('takes a zoned timestamp as is', () => {
    expect(parseDateBound('2024-03-01T10:00:00+02:00', 'to')?.toISOString()).toBe(
      '2024-03-01T08:00:00.000Z',
    );
    expect(parseDateBound('2024-03-01T10:00:00.5Z', 'from')?.toISOString()).toBe(
      '2024-03-01T10:00:00.500Z',
    );
  });

  it.each([
    '2023-02-29',
    '2024-13-01',
    '2024-1-1',
    '03/01/2024',
    '2024-03-01T10:00:00',
    'tomorrow',
    '',
  ])('refuses %s', (text) => {
    expect(parseDateBound(text, 'from')).toBeUndefined();
  });
});

describe('toActivityQuery', () => {
  it('applies defaults: page 1, 10 per page, -created_at then -id', () => {
    expect(ok({})).toEqual({
      eventTypes: [],
      causerIds: [],
      search: '',
      sort: [
        { field: 'created_at', descending: true },
        { field: 'id', descending: true },
      ],
      page: 1,
      perPage: 10,
    });
  });

  it('keeps filters, trimming and de-duplicating lists', () => {
    const query = ok({
      integration_instance_id: 4,
      event_types: ['connected', ' connected', '', 'updated'],
      causer_ids: ['7', '7'],
      search: '  a.b*  ',
      created: { from: '2024-01-01', to: '2024-01-31' },
      page: { page: 3, per_page: 25 },
    });
    expect(query).toMatchObject({
      integrationInstanceId: 4,
      eventTypes: ['connected', 'updated'],
      causerIds: ['7'],
      search: 'a.b*',
      createdFrom: new Date('2024-01-01T00:00:00.000Z'),
      createdTo: new Date('2024-01-31T23:59:59.999Z'),
      page: 3,
      perPage: 25,
    });
  });

  it('appends the id tiebreak in the direction of the last key', () => {
    expect(ok({ sort: [{ field: 'event', descending: false }] }).sort).toEqual([
      { field: 'event', descending: false },
      { field: 'id', descending: false },
    ]);
    expect(ok({ sort: [{ field: 'id', descending: false }] }).sort).toEqual([
      { field: 'id', descending: false },
    ]);
    expect(
      ok({
        sort: [
          { field: 'created_at', descending: false },
          { field: 'created_at', descending: true },
        ],
      }).sort,
    ).toEqual([
      { field: 'created_at', descending: false },
      { field: 'id', descending: false },
    ]);
  });

  it('reports every field at fault', () => {
    expect(
      violations({
        integration_instance_id: -1,
        created: { from: '2024-02-30', to: 'soon' },
        sort: [{ field: 'description', descending: false }],
        page: { page: -2, per_page: MAX_PER_PAGE + 1 },
      }),
    ).toEqual([
      'integration_instance_id',
      'created.from',
      'created.to',
      'sort',
      'page',
      'per_page',
    ]);
  });

  it('treats the proto zero values as unset', () => {
    expect(ok({ page: { page: 0, per_page: 0 }, created: { from: '', to: '' } })).toMatchObject({
      page: 1,
      perPage: 10,
    });
  });
});

describe('withIdTiebreak and pageInfo', () => {
  it('defaults the tiebreak to descending for an empty sort', () => {
    expect(withIdTiebreak([])).toEqual([{ field: 'id', descending: true }]);
  });

  it('computes positions and last page', () => {
    expect(pageInfo(2, 10, 25, 10)).toEqual({
      current_page: 2,
      last_page: 3,
      per_page: 10,
      total: 25,
      from: 11,
      to: 20,
    });
    expect(pageInfo(3, 10, 25, 5)).toEqual({
      current_page: 3,
      last_page: 3,
      per_page: 10,
      total: 25,
      from: 21,
      to: 25,
    });
    expect(pageInfo(9, 10, 25, 0)).toEqual({
      current_page: 9,
      last_page: 3,
      per_page: 10,
      total: 25,
      from: 0,
      to: 0,
    });
    expect(pageInfo(1, 10, 0, 0)).toMatchObject({ last_page: 1, from: 0, to: 0 });
  });
});
