import type { ListWebhookEventsRequest } from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import { validationFailed, type FieldViolation } from '@inventory/platform';
import {
  WEBHOOK_LOG_DEFAULT_PER_PAGE,
  WEBHOOK_LOG_MAX_PER_PAGE,
  WEBHOOK_LOG_SORTS,
  WEBHOOK_RESULTS,
  readPage,
} from '@inventory/rules';
import { receivedDays } from '../domain/received-days.js';
import type { ListQuery } from '../store/webhook-event-queries.js';
import type { WebhookEventRepository } from '../store/webhook-event-repository.js';

/**
 * One page of an instance's finished webhook rows; the gateway has checked the instance and the
 * query's syntax against `@inventory/rules`. What stays here is what the log's query itself
 * needs: a key it can sort by, days it can turn into bounds, a page that exists and the bound on
 * one page. A result
 * or event type no row has is not an error here: it matches nothing.
 */
export class ListWebhookEvents {
  constructor(private readonly log: WebhookEventRepository) {}

  async execute(tenantId: string, request: ListWebhookEventsRequest) {
    const violations: FieldViolation[] = [];
    if (request.results.some((result) => !(WEBHOOK_RESULTS as readonly string[]).includes(result)))
      violations.push({
        field: 'filter.result',
        description: `The filter.result field must be one of: ${WEBHOOK_RESULTS.join(', ')}.`,
      });
    if (request.sort.some((key) => !(WEBHOOK_LOG_SORTS as readonly string[]).includes(key.field)))
      violations.push({
        field: 'sort',
        description: `Allowed sort(s) are ${WEBHOOK_LOG_SORTS.join(', ')}.`,
      });
    const { from, to } = receivedDays(request.received, violations);
    // Zero is proto's "not set": the defaults; a negative one would be a query MongoDB refuses.
    const {
      page,
      perPage,
      violations: pageViolations,
    } = readPage(request.page, {
      defaultPerPage: WEBHOOK_LOG_DEFAULT_PER_PAGE,
      maxPerPage: WEBHOOK_LOG_MAX_PER_PAGE,
    });
    violations.push(...pageViolations);
    if (violations.length > 0) throw validationFailed(violations);
    const query: ListQuery = {
      eventTypes: request.event_types,
      results: request.results,
      trackingNumber: request.tracking_number,
      trackingNumberExact: request.tracking_number_exact,
      receivedFrom: from,
      receivedTo: to,
      sort: request.sort.length > 0 ? request.sort : [{ field: 'received_at', descending: true }],
      page,
      perPage,
    };
    // The instance's rows and those of the disconnected instances it carries as history (ADR 0215).
    const instanceIds = [request.integration_instance_id, ...request.history_instance_ids];
    const { rows, total } = await this.log.list(tenantId, instanceIds, query);
    return { rows, total, page, perPage };
  }
}
