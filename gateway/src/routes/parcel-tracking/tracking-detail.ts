import type { Checkpoint } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import type { ActivityAdapter } from '../../adapters/activity.js';
import type { ParcelTrackingAdapter } from '../../adapters/parcel-tracking.js';
import type { WebhookIngestAdapter } from '../../adapters/webhook-ingest.js';
import { isoOrNull } from '../../http/timestamps.js';
import { presentActivity } from '../activity/present-activity.js';
import { presentWebhookEvent } from '../webhooks/webhook-log-page.js';
import { presentTracking } from './present-tracking.js';
import { TRACKING_DETAIL_RECENT } from './tracking-schema.js';

export function presentCheckpoint(checkpoint: Checkpoint) {
  return {
    occurred_at: isoOrNull(checkpoint.occurred_at),
    description: checkpoint.description,
    location: checkpoint.location,
    status: checkpoint.status,
    sub_status: checkpoint.sub_status,
    stage: checkpoint.stage,
  };
}

export interface TrackingDetailDeps {
  parcelTracking: Pick<ParcelTrackingAdapter, 'getTracking' | 'checkInstance'>;
  webhookIngest: Pick<WebhookIngestAdapter, 'listWebhookEvents'>;
  activity: Pick<ActivityAdapter, 'listActivities'>;
}

/**
 * `GET .../instances/{instance}/trackings/{tracking}`: the row (404 for an unknown row or another
 * tenant's instance) with its checkpoints, newest first, then the newest inbound webhooks and
 * activity rows that name its number, of the instance and of its history (ADR 0215), each with
 * its total (ADR 0217).
 */
export async function trackingDetail(
  deps: TrackingDetailDeps,
  instanceId: number,
  trackingId: number,
) {
  const [found, { historyIds }] = await Promise.all([
    deps.parcelTracking.getTracking(instanceId, trackingId),
    deps.parcelTracking.checkInstance(instanceId),
  ]);
  const row = found.tracking!;
  const page = { page: 1, per_page: TRACKING_DETAIL_RECENT };
  const [webhooks, activity] = await Promise.all([
    deps.webhookIngest.listWebhookEvents({
      integration_instance_id: instanceId,
      history_instance_ids: historyIds,
      event_types: [],
      results: [],
      tracking_number: row.tracking_number,
      tracking_number_exact: true,
      sort: [{ field: 'received_at', descending: true }],
      page,
    }),
    deps.activity.listActivities({
      integration_instance_id: instanceId,
      history_instance_ids: historyIds,
      event_types: [],
      causer_ids: [],
      search: '',
      tracking_number: row.tracking_number,
      sort: [],
      page,
    }),
  ]);
  return {
    ...presentTracking(row),
    checkpoints: found.checkpoints.map(presentCheckpoint),
    webhooks: webhooks.events.map(presentWebhookEvent),
    webhooks_total: webhooks.page_info?.total ?? webhooks.events.length,
    activity: activity.activities.map(presentActivity),
    activity_total: activity.page_info?.total ?? activity.activities.length,
  };
}
