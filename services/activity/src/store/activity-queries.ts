import { INTEGRATION_INSTANCE_SUBJECT } from '@inventory/events';
import { escapeRegex, type ScopedFilter } from '@inventory/platform';
import type { SortOrder } from 'mongoose';
import type { ActivityQuery, SortKey } from '../domain/activity-query.js';
import type { ActivityDocument } from './activity.js';

/**
 * The conditions of a validated query. No tenant here: `ActivityRepository` sends them
 * through `TenantScopedRepository`, which adds the tenant last.
 */
export function activityConditions(query: ActivityQuery): ScopedFilter<ActivityDocument> {
  const filter: ScopedFilter<ActivityDocument> = {};
  if (query.integrationInstanceId !== undefined) {
    // The instance's own rows, and those of the earlier instances it carries as history.
    const ids = [query.integrationInstanceId, ...(query.historyInstanceIds ?? [])];
    const id = ids.length === 1 ? ids[0]! : { $in: ids };
    filter.$or = [
      { subject_type: INTEGRATION_INSTANCE_SUBJECT, subject_id: id },
      { 'properties.integration_instance_id': id },
    ];
  }
  if (query.eventTypes.length > 0) filter.event = { $in: query.eventTypes };
  if (query.causerIds.length > 0) filter.causer_id = { $in: query.causerIds };
  // User text is a literal substring: regex characters are escaped, never interpreted.
  if (query.search !== '')
    filter.description = { $regex: escapeRegex(query.search), $options: 'i' };
  if (query.trackingNumber)
    (filter as Record<string, unknown>)['properties.tracking_number'] = {
      $regex: `^${escapeRegex(query.trackingNumber)}$`,
      $options: 'i',
    };
  if (query.createdFrom || query.createdTo) {
    filter.created_at = {
      ...(query.createdFrom ? { $gte: query.createdFrom } : {}),
      ...(query.createdTo ? { $lte: query.createdTo } : {}),
    };
  }
  return filter;
}

export function activitySort(sort: SortKey[]): Record<string, SortOrder> {
  return Object.fromEntries(sort.map((key) => [key.field, key.descending ? -1 : 1]));
}
