import type { ListWebhookEventsRequest } from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import {
  WEBHOOK_LOG_DEFAULT_PER_PAGE,
  WEBHOOK_LOG_MAX_PER_PAGE,
  WEBHOOK_LOG_SORTS,
  WEBHOOK_RESULTS,
} from '@inventory/rules';
import type { ValuesOf } from '../../http/input-field.js';
import { page } from '../../http/page-fields.js';
import { query } from '../../http/query-fields.js';
import { INT32_MAX } from '../../http/query.js';

const MAX_SEARCH_LENGTH = 255;
const BAD_RESULT = `The selected filter.result is invalid. Allowed values are ${WEBHOOK_RESULTS.join(', ')}.`;

/**
 * The query of `GET .../instances/{instance}/webhooks`: dates are m/d/Y whole days in UTC on
 * received_at, inclusive. Unknown parameters are ignored.
 */
export const WEBHOOK_LOG_QUERY = {
  event_type: query.list({ description: 'comma-separated event types' }),
  result: query.list({
    description: `comma-separated: ${WEBHOOK_RESULTS.join(', ')}`,
    each: (item) => ((WEBHOOK_RESULTS as readonly string[]).includes(item) ? item : undefined),
    rejected: () => BAD_RESULT,
    notList: BAD_RESULT,
  }),
  tracking_number: query.search({ max: MAX_SEARCH_LENGTH }),
  date_from: query.day(),
  date_to: query.day(),
  sort: query.sort(WEBHOOK_LOG_SORTS, 'sort(s)'),
  page: page.counted({ fallback: 1, max: INT32_MAX }),
  per_page: page.counted({ fallback: WEBHOOK_LOG_DEFAULT_PER_PAGE, max: WEBHOOK_LOG_MAX_PER_PAGE }),
};

/** The ListWebhookEvents request; no sort is the service default (-received_at, then -id). */
export function webhookLogRequest(
  values: ValuesOf<typeof WEBHOOK_LOG_QUERY>,
  instanceId: number,
  historyIds: number[] = [],
): ListWebhookEventsRequest {
  const received: { from?: string; to?: string } = {};
  if (values.date_from) received.from = values.date_from;
  if (values.date_to) received.to = values.date_to;
  return {
    integration_instance_id: instanceId,
    event_types: values.event_type,
    results: values.result,
    tracking_number: values.tracking_number,
    tracking_number_exact: false,
    received,
    sort: values.sort,
    page: { page: values.page, per_page: values.per_page },
    history_instance_ids: historyIds,
  };
}
