import { escapeRegex, tenantFilter } from '@inventory/platform';
import type { FilterQuery, SortOrder } from 'mongoose';
import type { ActivityQuery, SortKey } from '../domain/activity-query.js';
import type { ActivityDocument } from './activity-model.js';

/** subject_type of rows whose subject is an integration instance (same constant as @inventory/events). */
export const INSTANCE_SUBJECT_TYPE = 'integration_instance';

/** Mongo filter for a validated query; the tenant is always added last by `tenantFilter`. */
export function activityFilter(
  tenantId: string,
  query: ActivityQuery,
): FilterQuery<ActivityDocument> {
  const filter: FilterQuery<ActivityDocument> = {};
  if (query.integrationInstanceId !== undefined) {
    filter.$or = [
      { subject_type: INSTANCE_SUBJECT_TYPE, subject_id: query.integrationInstanceId },
      { 'properties.integration_instance_id': query.integrationInstanceId },
    ];
  }
  if (query.eventTypes.length > 0) filter.event = { $in: query.eventTypes };
  if (query.causerIds.length > 0) filter.causer_id = { $in: query.causerIds };
  // User text is a literal substring: regex characters are escaped, never interpreted.
  if (query.search !== '')
    filter.description = { $regex: escapeRegex(query.search), $options: 'i' };
  if (query.createdFrom || query.createdTo) {
    filter.created_at = {
      ...(query.createdFrom ? { $gte: query.createdFrom } : {}),
      ...(query.createdTo ? { $lte: query.createdTo } : {}),
    };
  }
  return tenantFilter<ActivityDocument>(tenantId, filter);
}

export function activitySort(sort: SortKey[]): Record<string, SortOrder> {
  return Object.fromEntries(sort.map((key) => [key.field, key.descending ? -1 : 1]));
}
