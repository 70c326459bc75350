import type { ListWebhookEventsRequest } from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import { validationFailed, type FieldViolation } from '@inventory/platform';
import {
  WEBHOOK_LOG_DEFAULT_PER_PAGE,
  WEBHOOK_LOG_MAX_PER_PAGE,
  WEBHOOK_LOG_SORTS,
  WEBHOOK_RESULTS,
} from '@inventory/rules';
import type { ListQuery, WebhookLogReader } from '../store/webhook-log-reader.js';

/** A day `YYYY-MM-DD` as the first or last millisecond of that UTC day. */
function dayBound(day: string | undefined, end: 'from' | 'to'): Date | undefined | null {
  if (day === undefined || day === '') return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const time = new Date(`${day}T${end === 'from' ? '00:00:00.000' : '23:59:59.999'}Z`);
  return Number.isNaN(time.getTime()) ? null : time;
}

/** One page of an instance's finished webhook rows; the gateway has checked the instance. */
export class ListWebhookEvents {
  constructor(private readonly log: WebhookLogReader) {}

  async execute(tenantId: string, request: ListWebhookEventsRequest) {
    const violations: FieldViolation[] = [];
    const unknownResults = request.results.filter(
      (result) => !(WEBHOOK_RESULTS as readonly string[]).includes(result),
    );
    if (unknownResults.length > 0)
      violations.push({
        field: 'filter.result',
        description: `The filter.result field must be one of: ${WEBHOOK_RESULTS.join(', ')}.`,
      });
    const unknownSorts = request.sort.filter(
      (key) => !(WEBHOOK_LOG_SORTS as readonly string[]).includes(key.field),
    );
    if (unknownSorts.length > 0)
      violations.push({
        field: 'sort',
        description: `Allowed sort(s) are ${WEBHOOK_LOG_SORTS.join(', ')}.`,
      });
    const from = dayBound(request.received?.from, 'from');
    const to = dayBound(request.received?.to, 'to');
    if (from === null)
      violations.push({
        field: 'filter.date_from',
        description: 'The filter.date_from field must be a date.',
      });
    if (to === null)
      violations.push({
        field: 'filter.date_to',
        description: 'The filter.date_to field must be a date.',
      });
    const page = request.page?.page || 1;
    const perPage = request.page?.per_page || WEBHOOK_LOG_DEFAULT_PER_PAGE;
    if (page < 1)
      violations.push({ field: 'page', description: 'The page field must be at least 1.' });
    if (perPage < 1 || perPage > WEBHOOK_LOG_MAX_PER_PAGE)
      violations.push({
        field: 'per_page',
        description: `The per_page field must be between 1 and ${WEBHOOK_LOG_MAX_PER_PAGE}.`,
      });
    if (violations.length > 0) throw validationFailed(violations);
    const query: ListQuery = {
      eventTypes: request.event_types,
      results: request.results,
      trackingNumber: request.tracking_number,
      receivedFrom: from ?? undefined,
      receivedTo: to ?? undefined,
      sort: request.sort.length > 0 ? request.sort : [{ field: 'received_at', descending: true }],
      page,
      perPage,
    };
    const { rows, total } = await this.log.list(tenantId, request.integration_instance_id, query);
    return { rows, total, page, perPage };
  }
}
