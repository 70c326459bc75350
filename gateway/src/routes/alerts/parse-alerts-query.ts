import type { ListAlertsRequest } from '@inventory/contracts/activity/v1/activity.js';
import { ALERTS_DEFAULT_PER_PAGE, ALERTS_MAX_PER_PAGE } from '@inventory/rules';
import { INT32_MAX, pageNumber } from '../../http/query.js';

export type ParsedAlertsQuery =
  { ok: true; request: ListAlertsRequest } | { ok: false; errors: Record<string, string[]> };

function unreadFilter(params: Record<string, unknown>, errors: Record<string, string[]>): boolean {
  const filter = params.filter;
  const raw =
    params['filter[unread]'] ??
    (filter && typeof filter === 'object' ? (filter as Record<string, unknown>).unread : undefined);
  if (raw === undefined || raw === '') return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  (errors['filter.unread'] ??= []).push('The filter.unread field must be true or false.');
  return false;
}

/**
 * `GET /api/alerts` query: `page`, `per_page` (≤ 100) and `filter[unread]` (true/false).
 * Unknown parameters are ignored, as on the other lists.
 */
export function parseAlertsQuery(query: unknown): ParsedAlertsQuery {
  const params = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  const unreadOnly = unreadFilter(params, errors);
  const page = pageNumber(params.page, 'page', 1, INT32_MAX, errors, 16);
  const perPage = pageNumber(
    params.per_page,
    'per_page',
    ALERTS_DEFAULT_PER_PAGE,
    ALERTS_MAX_PER_PAGE,
    errors,
    16,
  );
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, request: { unread_only: unreadOnly, page: { page, per_page: perPage } } };
}
