import type { ActivityAdapter } from '../../adapters/activity.js';
import type { ValuesOf } from '../../http/input-field.js';
import { linksMetaEnvelope, pageMeta } from '../../http/pagination.js';
import { activityRequest, type ACTIVITY_QUERY } from './activity-query.js';
import { presentActivity } from './present-activity.js';

export interface InstanceActivityInput {
  activity: ActivityAdapter;
  /** The instance id, already checked to exist for the caller's tenant. */
  instanceId: number;
  /** The tenant's disconnected instances, whose rows are listed too (ADR 0215). */
  historyIds?: number[];
  /** The route's declared query, read and checked. */
  query: ValuesOf<typeof ACTIVITY_QUERY>;
  /** Absolute URL of the endpoint without query (the envelope's `path`). */
  path: string;
  /** The raw query string without `?`, so page URLs keep every filter and sort. */
  rawQuery: string;
}

/**
 * The whole `GET .../instances/{instance}/activity` answer after the instance check and the
 * query's: list, present, links/meta envelope (#2).
 */
export async function instanceActivityPage(input: InstanceActivityInput) {
  const response = await input.activity.listActivities(
    activityRequest(input.query, input.instanceId, input.historyIds),
  );
  const info = response.page_info!;
  const meta = pageMeta(info.current_page, info.per_page, info.total, response.activities.length);
  return linksMetaEnvelope(
    response.activities.map(presentActivity),
    meta,
    input.path,
    input.rawQuery,
  );
}
