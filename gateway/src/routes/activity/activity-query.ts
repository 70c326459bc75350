import type { ListActivitiesRequest } from '@inventory/contracts/activity/v1/activity.js';
import { ACTIVITY_DEFAULT_PER_PAGE, ACTIVITY_MAX_PER_PAGE, ACTIVITY_SORTS } from '@inventory/rules';
import type { ValuesOf } from '../../http/input-field.js';
import { page } from '../../http/page-fields.js';
import { query } from '../../http/query-fields.js';
import { INT32_MAX } from '../../http/query.js';

/** The sorts and page limits are the activity service's too (one definition, @inventory/rules). */
export { ACTIVITY_MAX_PER_PAGE };
const ACTIVITY_MAX_SEARCH_LENGTH = 255;

/**
 * The query of `GET .../instances/{instance}/activity`, with Laravel-style field errors
 * (`{ 'filter.date_from': ['The filter.date_from field must match the format m/d/Y.'] }`).
 * Unknown parameters are ignored. Dates are whole days in UTC.
 */
export const ACTIVITY_QUERY = {
  event_type: query.list({ description: 'comma-separated event types' }),
  causer_id: query.list({ description: 'comma-separated user ids' }),
  search: query.search({ max: ACTIVITY_MAX_SEARCH_LENGTH }),
  date_from: query.day(),
  date_to: query.day(),
  sort: query.sort(ACTIVITY_SORTS, 'sort(s)'),
  page: page.counted({ fallback: 1, max: INT32_MAX, maxDigits: Infinity }),
  per_page: page.counted({
    fallback: ACTIVITY_DEFAULT_PER_PAGE,
    max: ACTIVITY_MAX_PER_PAGE,
    maxDigits: Infinity,
  }),
};

/** The ListActivities request for that instance; no sort is the service default (-created_at, -id). */
export function activityRequest(
  values: ValuesOf<typeof ACTIVITY_QUERY>,
  instanceId: number,
  historyIds: number[] = [],
): ListActivitiesRequest {
  const created: { from?: string; to?: string } = {};
  if (values.date_from) created.from = values.date_from;
  if (values.date_to) created.to = values.date_to;
  return {
    integration_instance_id: instanceId,
    event_types: values.event_type,
    causer_ids: values.causer_id,
    search: values.search,
    tracking_number: '',
    created,
    sort: values.sort,
    page: { page: values.page, per_page: values.per_page },
    history_instance_ids: historyIds,
  };
}
