import type { ListAlertsRequest } from '@inventory/contracts/activity/v1/activity.js';
import { ALERTS_DEFAULT_PER_PAGE, ALERTS_MAX_PER_PAGE } from '@inventory/rules';
import type { ValuesOf } from '../../http/input-field.js';
import { page } from '../../http/page-fields.js';
import { query } from '../../http/query-fields.js';
import { INT32_MAX } from '../../http/query.js';

/**
 * `GET /api/alerts` query: `filter[unread]` (true/false), `page`, `per_page` (≤ 100).
 * Unknown parameters are ignored, as on the other lists.
 */
export const ALERTS_QUERY = {
  unread: query.flag(),
  page: page.counted({ fallback: 1, max: INT32_MAX, maxDigits: 16 }),
  per_page: page.counted({
    fallback: ALERTS_DEFAULT_PER_PAGE,
    max: ALERTS_MAX_PER_PAGE,
    maxDigits: 16,
  }),
};

export function alertsRequest(values: ValuesOf<typeof ALERTS_QUERY>): ListAlertsRequest {
  return { unread_only: values.unread, page: { page: values.page, per_page: values.per_page } };
}
