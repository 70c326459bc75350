import { describe, expect, it } from 'vitest';
import { readQuery } from '../../http/route-input.js';
import { WEBHOOK_LOG_QUERY, webhookLogRequest } from './webhook-log-query.js';

/** What the webhook log route reads from a query: the request, or the field errors of its 422. */
function parseWebhookLogQuery(query: unknown, instanceId: number) {
  const { values, errors } = readQuery(WEBHOOK_LOG_QUERY, query);
  return Object.keys(errors).length > 0
    ? { ok: false as const, errors }
    : { ok: true as const, request: webhookLogRequest(values, instanceId) };
}

describe('webhook log query', () => {
  it('defaults to page 1 of 10, newest received first (the service default)', () => {
    expect(parseWebhookLogQuery({}, 7)).toEqual({
      ok: true,
      request: {
        integration_instance_id: 7,
        history_instance_ids: [],
        event_types: [],
        results: [],
        tracking_number: '',
        tracking_number_exact: false,
        received: {},
        sort: [],
        page: { page: 1, per_page: 10 },
      },
    });
  });

  it('reads comma lists, repeated keys and nested filters, several sorts and m/d/Y days', () => {
    const parsed = parseWebhookLogQuery(
      {
        'filter[event_type]': ['TRACKING_UPDATED', 'TRACKING_STOPPED,TRACKING_UPDATED'],
        filter: { result: 'processed, ignored', tracking_number: ' 1Z9 ' },
        'filter[date_from]': '03/01/2025',
        'filter[date_to]': '03/31/2025',
        sort: '-result,received_at',
        page: '2',
        per_page: '50',
      },
      7,
    );
    expect(parsed).toEqual({
      ok: true,
      request: {
        integration_instance_id: 7,
        history_instance_ids: [],
        event_types: ['TRACKING_UPDATED', 'TRACKING_STOPPED'],
        results: ['processed', 'ignored'],
        tracking_number: '1Z9',
        tracking_number_exact: false,
        received: { from: '2025-03-01', to: '2025-03-31' },
        sort: [
          { field: 'result', descending: true },
          { field: 'received_at', descending: false },
        ],
        page: { page: 2, per_page: 50 },
      },
    });
  });

  it('names every bad field at once', () => {
    const parsed = parseWebhookLogQuery(
      {
        'filter[result]': 'processed,pending',
        'filter[date_from]': '2025-03-01',
        'filter[date_to]': '13/01/2025',
        'filter[event_type]': { nested: 'object' },
        sort: 'summary',
        page: '-1',
        per_page: '1001',
      },
      7,
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.errors).sort()).toEqual([
      'filter.date_from',
      'filter.date_to',
      'filter.event_type',
      'filter.result',
      'page',
      'per_page',
      'sort',
    ]);
    expect(parsed.errors.sort![0]).toContain('summary');
  });
});
