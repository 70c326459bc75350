import { validationFailed } from '@inventory/platform';
import {
  pageInfo,
  toActivityQuery,
  type ActivityQueryInput,
  type PageInfo,
} from '../domain/activity-query.js';
import type { ActivityDocument } from '../store/activity.js';
import type { ActivityRepository } from '../store/activity-repository.js';

/** One page of a tenant's activity log. */
export class ListActivities {
  constructor(private readonly activities: ActivityRepository) {}

  async execute(
    tenantId: string,
    input: ActivityQueryInput,
  ): Promise<{ rows: ActivityDocument[]; page: PageInfo }> {
    const result = toActivityQuery(input);
    if ('violations' in result) throw validationFailed(result.violations);
    const { query } = result;
    const { rows, total } = await this.activities.list(tenantId, query);
    return { rows, page: pageInfo(query.page, query.perPage, total, rows.length) };
  }
}
