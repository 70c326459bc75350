import type { ListActivitiesRequest } from '@inventory/contracts/activity/v1/activity.js';
import { ACTIVITY_DEFAULT_PER_PAGE, ACTIVITY_MAX_PER_PAGE, ACTIVITY_SORTS } from '@inventory/rules';
import { parseMdY } from '../../http/dates.js';
import {
  commaList,
  filterValue,
  INT32_MAX,
  pageNumber,
  type QueryValue,
} from '../../http/query.js';

/** The sorts and page limits are the activity service's too (one definition, @inventory/rules). */
export { ACTIVITY_MAX_PER_PAGE };
const ACTIVITY_MAX_SEARCH_LENGTH = 255;

export type ParsedActivityQuery =
  { ok: true; request: ListActivitiesRequest } | { ok: false; errors: Record<string, string[]> };

/** Where parse-webhook-log-query.ts (and this module's spec) still look for it; it lives in http/dates.ts. */
export { parseMdY };

/**
 * Parses the HTTP query of `GET .../instances/{instance}/activity` into the
 * ListActivities request for that instance, or Laravel-style field errors
 * (`{ 'filter.date_from': ['The filter.date_from field must match the format m/d/Y.'] }`)
 * for a 422. Unknown parameters are ignored. Dates are whole days in UTC.
 */
export function parseActivityQuery(query: unknown, instanceId: number): ParsedActivityQuery {
  const params = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  const errors: Record<string, string[]> = {};

  const lists: Record<'event_type' | 'causer_id', string[]> = { event_type: [], causer_id: [] };
  for (const name of ['event_type', 'causer_id'] as const) {
    const values = commaList(filterValue(params, name));
    if (values) lists[name] = values;
    else
      (errors[`filter.${name}`] ??= []).push(
        `The filter.${name} field must be a comma-separated list.`,
      );
  }

  let search = '';
  const rawSearch = filterValue(params, 'search');
  if (rawSearch !== undefined && typeof rawSearch !== 'string')
    (errors['filter.search'] ??= []).push('The filter.search field must be a string.');
  else if (rawSearch !== undefined && rawSearch.trim().length > ACTIVITY_MAX_SEARCH_LENGTH) {
    (errors['filter.search'] ??= []).push(
      `The filter.search field must not be greater than ${ACTIVITY_MAX_SEARCH_LENGTH} characters.`,
    );
  } else search = rawSearch?.trim() ?? '';

  const created: { from?: string; to?: string } = {};
  for (const [name, end] of [
    ['date_from', 'from'],
    ['date_to', 'to'],
  ] as const) {
    const raw = filterValue(params, name);
    if (raw === undefined || raw === '') continue;
    const day = typeof raw === 'string' ? parseMdY(raw.trim()) : undefined;
    if (day) created[end] = day;
    else
      (errors[`filter.${name}`] ??= []).push(
        `The filter.${name} field must match the format m/d/Y.`,
      );
  }

  const sort: Array<{ field: string; descending: boolean }> = [];
  const sortParts = commaList(params.sort as QueryValue);
  if (!sortParts) {
    (errors.sort ??= []).push('The sort field must be a comma-separated list.');
  } else {
    const unknown = sortParts.filter(
      (part) => !(ACTIVITY_SORTS as readonly string[]).includes(part.replace(/^-/, '')),
    );
    if (unknown.length > 0) {
      (errors.sort ??= []).push(
        `Requested sort(s) \`${unknown.join(', ')}\` is not allowed. Allowed sort(s) are \`${ACTIVITY_SORTS.join(', ')}\`.`,
      );
    } else {
      for (const part of sortParts)
        sort.push({ field: part.replace(/^-/, ''), descending: part.startsWith('-') });
    }
  }

  const page = pageNumber(params.page, 'page', 1, INT32_MAX, errors, Infinity);
  const perPage = pageNumber(
    params.per_page,
    'per_page',
    ACTIVITY_DEFAULT_PER_PAGE,
    ACTIVITY_MAX_PER_PAGE,
    errors,
    Infinity,
  );

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    request: {
      integration_instance_id: instanceId,
      event_types: lists.event_type,
      causer_ids: lists.causer_id,
      search,
      created,
      // Empty means the service default: -created_at, then -id.
      sort,
      page: { page, per_page: perPage },
    },
  };
}
