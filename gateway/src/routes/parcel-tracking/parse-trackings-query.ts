import type { ListTrackingsRequest } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { commaList, filterValue, pageNumber } from '../../http/query.js';
import {
  DELIVERY_STATUSES,
  TRACKABLE_TYPE_SLUGS,
  TRACKABLE_TYPES,
  TRACKING_SORTS,
} from '@inventory/rules';
import { parseMdY } from '../../http/dates.js';

const TRACKINGS_DEFAULT_PER_PAGE = 10;
/** The spec advises at most 100; above it is a 422, not a silent clamp (README). */
export const TRACKINGS_MAX_PER_PAGE = 100;
const TRACKINGS_MAX_SEARCH_LENGTH = 255;
/**
 * `filter[trackable_type]` takes a slug or the record type's fully qualified
 * name (the web app's model class), mapped here to the slug the rows store.
 */
const SLUG_OF = new Map<string, string>(
  Object.entries(TRACKABLE_TYPES).flatMap(([slug, { modelClass }]) => [
    [slug, slug],
    [modelClass.toLowerCase(), slug],
    [`\\${modelClass.toLowerCase()}`, slug],
  ]),
);

type Errors = Record<string, string[]>;
const fail = (errors: Errors, field: string, message: string) =>
  (errors[field] ??= []).push(message);

function listOf(
  params: Record<string, unknown>,
  name: string,
  errors: Errors,
  check: (item: string) => string | undefined,
  invalid: string,
): string[] {
  const field = `filter.${name}`;
  const items = commaList(filterValue(params, name));
  if (!items) {
    fail(errors, field, `The ${field} field must be a comma-separated list.`);
    return [];
  }
  const mapped = items.map(check);
  const bad = items.filter((_, index) => mapped[index] === undefined);
  if (bad.length > 0) fail(errors, field, `${invalid} ${bad.slice(0, 5).join(', ')}`.trim());
  return [...new Set(mapped.filter((item): item is string => item !== undefined))];
}

export type ParsedTrackingsQuery =
  { ok: true; request: ListTrackingsRequest } | { ok: false; errors: Errors };

/**
 * Parses `GET .../instances/{instance}/trackings` into ListTrackings, or
 * Laravel-style field errors for a 422. Unknown parameters are ignored; dates
 * are whole UTC days, both ends inclusive.
 */
export function parseTrackingsQuery(query: unknown, instanceId: number): ParsedTrackingsQuery {
  const params = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  const errors: Errors = {};

  let search = '';
  const rawSearch = filterValue(params, 'search');
  if (rawSearch !== undefined && typeof rawSearch !== 'string')
    fail(errors, 'filter.search', 'The filter.search field must be a string.');
  else if (rawSearch !== undefined && rawSearch.trim().length > TRACKINGS_MAX_SEARCH_LENGTH)
    fail(
      errors,
      'filter.search',
      `The filter.search field must not be greater than ${TRACKINGS_MAX_SEARCH_LENGTH} characters.`,
    );
  else search = rawSearch?.trim() ?? '';

  const statuses = listOf(
    params,
    'delivery_status',
    errors,
    (item) => ((DELIVERY_STATUSES as readonly string[]).includes(item) ? item : undefined),
    `The selected filter.delivery_status is invalid; allowed: ${DELIVERY_STATUSES.join(', ')}. Got:`,
  );
  const carriers = listOf(
    params,
    'carrier_code',
    errors,
    (item) => (/^\d{1,12}$/.test(item) ? item : undefined),
    'The filter.carrier_code field must hold integers. Got:',
  );
  const types = listOf(
    params,
    'trackable_type',
    errors,
    (item) => SLUG_OF.get(item.toLowerCase()),
    `The selected filter.trackable_type is invalid; allowed: ${TRACKABLE_TYPE_SLUGS.join(', ')} or their type names. Got:`,
  );

  const created: { from?: Date; before?: Date } = {};
  for (const [name, end] of [
    ['date_from', 'from'],
    ['date_to', 'before'],
  ] as const) {
    const raw = filterValue(params, name);
    if (raw === undefined || raw === '') continue;
    const day = typeof raw === 'string' ? parseMdY(raw.trim()) : undefined;
    if (!day) {
      fail(errors, `filter.${name}`, `The filter.${name} field must match the format m/d/Y.`);
      continue;
    }
    const start = new Date(`${day}T00:00:00.000Z`);
    created[end] = end === 'from' ? start : new Date(start.getTime() + 24 * 3600 * 1000);
  }

  let sortField: string = 'created_at';
  let descending = true;
  const rawSort = params.sort;
  if (rawSort !== undefined && rawSort !== '') {
    const value = typeof rawSort === 'string' ? rawSort.trim() : undefined;
    const field = value?.replace(/^-/, '');
    if (!value || !field || !(TRACKING_SORTS as readonly string[]).includes(field))
      fail(
        errors,
        'sort',
        `Requested sort \`${typeof rawSort === 'string' ? rawSort : '[array]'}\` is not allowed. Allowed sorts are \`${TRACKING_SORTS.join(', ')}\`.`,
      );
    else {
      sortField = field;
      descending = value.startsWith('-');
    }
  }

  const page = pageNumber(params.page, 'page', 1, 2_147_483_647, errors);
  const perPage = pageNumber(
    params.per_page,
    'per_page',
    TRACKINGS_DEFAULT_PER_PAGE,
    TRACKINGS_MAX_PER_PAGE,
    errors,
  );

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    request: {
      integration_instance_id: instanceId,
      search,
      delivery_statuses: statuses,
      carrier_codes: carriers.map(Number),
      trackable_types: types,
      created_from: created.from,
      created_before: created.before,
      sort_field: sortField,
      sort_descending: descending,
      page,
      per_page: perPage,
    },
  };
}
