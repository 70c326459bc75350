import { validationFailed } from '@inventory/platform';
import { toAlertPage, type AlertReader } from '../domain/alert.js';
import { pageInfo, type PageInfo } from '../domain/activity-query.js';
import type { AlertDocument } from '../store/alert.js';
import type { AlertRepository } from '../store/alert-repository.js';

export interface ListAlertsInput {
  reader: AlertReader;
  unreadOnly: boolean;
  page?: { page: number; per_page: number } | undefined;
}

/** One page of the alerts a reader sees, newest first, and their unread count. */
export class ListAlerts {
  constructor(private readonly alerts: AlertRepository) {}

  async execute(
    tenantId: string,
    input: ListAlertsInput,
  ): Promise<{ rows: AlertDocument[]; page: PageInfo; unreadCount: number }> {
    const paging = toAlertPage(input.page);
    if ('violations' in paging) throw validationFailed(paging.violations);
    const { rows, total, unread } = await this.alerts.listPage(tenantId, {
      reader: input.reader,
      unreadOnly: input.unreadOnly,
      page: paging.page,
      perPage: paging.perPage,
    });
    return {
      rows,
      page: pageInfo(paging.page, paging.perPage, total, rows.length),
      unreadCount: unread,
    };
  }
}
