import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, withIdTiebreak, type ActivityQuery } from '../domain/activity-query.js';
import { activityConditions, activitySort } from './activity-queries.js';
import { ActivityRepository } from './activity-repository.js';

/** The filter `ActivityRepository.list` sends: the query's conditions through the tenant scope. */
class SentFilter extends ActivityRepository {
  of(tenantId: string, query: ActivityQuery) {
    return this.scope(tenantId, activityConditions(query));
  }
}
// A connection that never connects: building a filter needs the model, not a server.
const sent = new SentFilter(mongoose.createConnection());
const activityFilter = (tenantId: string, query: ActivityQuery) => sent.of(tenantId, query);

const query: ActivityQuery = {
  eventTypes: [],
  causerIds: [],
  search: '',
  sort: DEFAULT_SORT,
  page: 1,
  perPage: 10,
};

describe('activityFilter', () => {
  it('scopes by tenant only when nothing is filtered', () => {
    expect(activityFilter('t1', query)).toEqual({ tenant_id: 't1' });
  });

  it('builds every filter, escaping search text', () => {
    const from = new Date('2024-01-01T00:00:00Z');
    const to = new Date('2024-01-02T23:59:59.999Z');
    expect(
      activityFilter('t1', {
        ...query,
        integrationInstanceId: 5,
        eventTypes: ['connected'],
        causerIds: ['9'],
        search: 'a.b*',
        createdFrom: from,
        createdTo: to,
      }),
    ).toEqual({
      $or: [
        { subject_type: 'integration_instance', subject_id: 5 },
        { 'properties.integration_instance_id': 5 },
      ],
      event: { $in: ['connected'] },
      causer_id: { $in: ['9'] },
      description: { $regex: 'a\\.b\\*', $options: 'i' },
      created_at: { $gte: from, $lte: to },
      tenant_id: 't1',
    });
  });

  it('keeps an open-ended date range open', () => {
    const from = new Date('2024-01-01T00:00:00Z');
    expect(activityFilter('t1', { ...query, createdFrom: from }).created_at).toEqual({
      $gte: from,
    });
  });

  it('never lets a filter widen the tenant', () => {
    expect(activityFilter('t1', query).tenant_id).toBe('t1');
    expect(() => activityFilter('', query)).toThrow();
  });
});

describe('activitySort', () => {
  it('maps keys in order', () => {
    expect(
      Object.entries(activitySort(withIdTiebreak([{ field: 'event', descending: false }]))),
    ).toEqual([
      ['event', 1],
      ['id', 1],
    ]);
    expect(activitySort(DEFAULT_SORT)).toEqual({ created_at: -1, id: -1 });
  });
});
