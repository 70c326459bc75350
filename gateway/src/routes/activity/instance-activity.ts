import type { ActivityAdapter } from '../../adapters/activity.js';
import { validationBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';
import { linksMetaEnvelope, pageMeta } from '../../http/pagination.js';
import { parseActivityQuery } from './parse-activity-query.js';
import { presentActivity } from './present-activity.js';

export interface InstanceActivityInput {
  activity: ActivityAdapter;
  /** The instance id, already checked to exist for the caller's tenant. */
  instanceId: number;
  /** Fastify's `request.query`. */
  query: unknown;
  /** Absolute URL of the endpoint without query (the envelope's `path`). */
  path: string;
  /** The raw query string without `?`, so page URLs keep every filter and sort. */
  rawQuery: string;
}

/**
 * The whole `GET .../instances/{instance}/activity` answer after the instance
 * check: parse (422 on bad input), list, present, links/meta envelope (#2).
 */
export async function instanceActivityPage(input: InstanceActivityInput) {
  const parsed = parseActivityQuery(input.query, input.instanceId);
  if (!parsed.ok) throw new HttpError(422, validationBody(parsed.errors));
  const response = await input.activity.listActivities(parsed.request);
  const info = response.page_info!;
  const meta = pageMeta(info.current_page, info.per_page, info.total, response.activities.length);
  return linksMetaEnvelope(
    response.activities.map(presentActivity),
    meta,
    input.path,
    input.rawQuery,
  );
}
