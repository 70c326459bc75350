import type { ListWebhookEventsRequest } from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import {
  WEBHOOK_LOG_DEFAULT_PER_PAGE,
  WEBHOOK_LOG_MAX_PER_PAGE,
  WEBHOOK_LOG_SORTS,
  WEBHOOK_RESULTS,
} from '@inventory/rules';
import { parseMdY } from '../../http/dates.js';
import { commaList, filterValue, pageNumber, type QueryValue } from '../../http/query.js';
const MAX_SEARCH_LENGTH = 255;
const MAX_PAGE = 2_147_483_647;

export type ParsedWebhookLogQuery =
  { ok: true; request: ListWebhookEventsRequest } | { ok: false; errors: Record<string, string[]> };

/**
 * Parses `GET .../instances/{instance}/webhooks` into the ListWebhookEvents
 * request, or Laravel-style field errors for a 422. Dates are m/d/Y whole days
 * in UTC on received_at, inclusive. Unknown parameters are ignored.
 */
export function parseWebhookLogQuery(query: unknown, instanceId: number): ParsedWebhookLogQuery {
  const params = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  const errors: Record<string, string[]> = {};

  const eventTypes = commaList(filterValue(params, 'event_type'));
  if (!eventTypes)
    (errors['filter.event_type'] ??= []).push(
      'The filter.event_type field must be a comma-separated list.',
    );
  const results = commaList(filterValue(params, 'result'));
  if (
    !results ||
    results.some((result) => !(WEBHOOK_RESULTS as readonly string[]).includes(result))
  )
    (errors['filter.result'] ??= []).push(
      `The selected filter.result is invalid. Allowed values are ${WEBHOOK_RESULTS.join(', ')}.`,
    );

  let trackingNumber = '';
  const rawNumber = filterValue(params, 'tracking_number');
  if (rawNumber !== undefined && typeof rawNumber !== 'string')
    (errors['filter.tracking_number'] ??= []).push(
      'The filter.tracking_number field must be a string.',
    );
  else if (rawNumber !== undefined && rawNumber.trim().length > MAX_SEARCH_LENGTH)
    (errors['filter.tracking_number'] ??= []).push(
      `The filter.tracking_number field must not be greater than ${MAX_SEARCH_LENGTH} characters.`,
    );
  else trackingNumber = rawNumber?.trim() ?? '';

  const received: { from?: string; to?: string } = {};
  for (const [name, end] of [
    ['date_from', 'from'],
    ['date_to', 'to'],
  ] as const) {
    const raw = filterValue(params, name);
    if (raw === undefined || raw === '') continue;
    const day = typeof raw === 'string' ? parseMdY(raw.trim()) : undefined;
    if (day) received[end] = day;
    else
      (errors[`filter.${name}`] ??= []).push(
        `The filter.${name} field must match the format m/d/Y.`,
      );
  }

  const sort: Array<{ field: string; descending: boolean }> = [];
  const sortParts = commaList(params.sort as QueryValue);
  const unknownSorts =
    sortParts?.filter(
      (part) => !(WEBHOOK_LOG_SORTS as readonly string[]).includes(part.replace(/^-/, '')),
    ) ?? [];
  if (!sortParts || unknownSorts.length > 0)
    (errors.sort ??= []).push(
      `Requested sort(s) \`${unknownSorts.join(', ') || String(params.sort)}\` is not allowed. Allowed sort(s) are \`${WEBHOOK_LOG_SORTS.join(', ')}\`.`,
    );
  else
    for (const part of sortParts)
      sort.push({ field: part.replace(/^-/, ''), descending: part.startsWith('-') });

  const page = pageNumber(params.page, 'page', 1, MAX_PAGE, errors);
  const perPage = pageNumber(
    params.per_page,
    'per_page',
    WEBHOOK_LOG_DEFAULT_PER_PAGE,
    WEBHOOK_LOG_MAX_PER_PAGE,
    errors,
  );

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    request: {
      integration_instance_id: instanceId,
      event_types: eventTypes!,
      results: results!,
      tracking_number: trackingNumber,
      received,
      // Empty means the service default: -received_at (then -id).
      sort,
      page: { page, per_page: perPage },
    },
  };
}
