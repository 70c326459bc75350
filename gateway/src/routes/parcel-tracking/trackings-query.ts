import type { ListTrackingsRequest } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import {
  DELIVERY_STATUSES,
  TRACKABLE_TYPE_SLUGS,
  TRACKABLE_TYPES,
  TRACKING_SORTS,
  TRACKINGS_DEFAULT_PER_PAGE,
  TRACKINGS_MAX_PER_PAGE,
} from '@inventory/rules';
import type { ValuesOf } from '../../http/input-field.js';
import { page } from '../../http/page-fields.js';
import { query } from '../../http/query-fields.js';
import { INT32_MAX } from '../../http/query.js';

/** Above the one maximum (`@inventory/rules`, ADR 0210) is a 422, not a silent clamp. */
export { TRACKINGS_MAX_PER_PAGE };
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

/** The query of `GET .../instances/{instance}/trackings`; unknown parameters are ignored. */
export const TRACKINGS_QUERY = {
  search: query.search({ max: TRACKINGS_MAX_SEARCH_LENGTH }),
  delivery_status: query.list({
    description: `comma-separated: ${DELIVERY_STATUSES.join(', ')}`,
    each: (item) => ((DELIVERY_STATUSES as readonly string[]).includes(item) ? item : undefined),
    rejected: (bad) =>
      `The selected filter.delivery_status is invalid; allowed: ${DELIVERY_STATUSES.join(', ')}. Got: ${listed(bad)}`,
  }),
  carrier_code: query.list({
    description: 'comma-separated carrier codes (integers)',
    each: (item) => (/^\d{1,12}$/.test(item) ? item : undefined),
    rejected: (bad) => `The filter.carrier_code field must hold integers. Got: ${listed(bad)}`,
  }),
  trackable_type: query.list({
    description: `comma-separated: ${TRACKABLE_TYPE_SLUGS.join(', ')} or their type names`,
    each: (item) => SLUG_OF.get(item.toLowerCase()),
    rejected: (bad) =>
      `The selected filter.trackable_type is invalid; allowed: ${TRACKABLE_TYPE_SLUGS.join(', ')} or their type names. Got: ${listed(bad)}`,
  }),
  date_from: query.day(),
  date_to: query.day(),
  // Beside the specification's filters (ADR 0218).
  stalled: query.flag(),
  late: query.flag(),
  sort: query.sort(TRACKING_SORTS, 'single'),
  page: page.counted({ fallback: 1, max: INT32_MAX }),
  per_page: page.counted({ fallback: TRACKINGS_DEFAULT_PER_PAGE, max: TRACKINGS_MAX_PER_PAGE }),
};

/** At most five of the refused items, as the message shows them. */
const listed = (bad: string[]) => bad.slice(0, 5).join(', ');

const DAY_MS = 24 * 3600 * 1000;

/**
 * The ListTrackings request for the read query: dates are whole UTC days, both ends inclusive
 * (`date_to` is the start of the next day, exclusive); no sort is `-created_at`.
 */
export function trackingsRequest(
  values: ValuesOf<typeof TRACKINGS_QUERY>,
  instanceId: number,
): ListTrackingsRequest {
  const start = (day: string | undefined) =>
    day === undefined ? undefined : new Date(`${day}T00:00:00.000Z`);
  const before = start(values.date_to);
  const [sort = { field: 'created_at', descending: true }] = values.sort;
  return {
    integration_instance_id: instanceId,
    search: values.search,
    delivery_statuses: values.delivery_status,
    carrier_codes: values.carrier_code.map(Number),
    trackable_types: values.trackable_type,
    created_from: start(values.date_from),
    created_before: before && new Date(before.getTime() + DAY_MS),
    sort_field: sort.field,
    sort_descending: sort.descending,
    page: values.page,
    per_page: values.per_page,
    stalled: values.stalled,
    late: values.late,
  };
}
