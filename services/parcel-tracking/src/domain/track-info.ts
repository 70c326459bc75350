import type { ProviderCheckpoint } from './checkpoints.js';
import type { ProviderUpdate } from './tracking-update.js';

/** The parts of the provider's `track_info` (DESIGN §8) the status machine uses. */
export interface TrackInfo {
  latest_status?: { status?: string | null; sub_status?: string | null } | null;
  latest_event?: {
    time_utc?: string | null;
    description?: string | null;
    location?: string | null;
  } | null;
  time_metrics?: {
    estimated_delivery_date?: { from?: string | null; to?: string | null } | null;
  } | null;
  milestone?: Array<{ key_stage?: string; time_utc?: string | null }> | null;
  tracking?: {
    providers?: Array<{
      provider?: { key?: number; name?: string };
      events?: Array<{
        time_utc?: string | null;
        description?: string | null;
        location?: string | null;
        sub_status?: string | null;
        stage?: string | null;
      } | null> | null;
    }> | null;
  } | null;
}

const date = (text: string | null | undefined): Date | null => {
  if (!text) return null;
  const value = new Date(text);
  return Number.isNaN(value.getTime()) ? null : value;
};

/** Every provider's events (a parcel handed between carriers has several), as checkpoints. */
function checkpointsOf(info: TrackInfo | null | undefined): ProviderCheckpoint[] {
  const checkpoints: ProviderCheckpoint[] = [];
  for (const provider of info?.tracking?.providers ?? []) {
    for (const event of provider?.events ?? []) {
      const at = date(event?.time_utc);
      if (!at) continue;
      checkpoints.push({
        occurred_at: at,
        description: event?.description ?? '',
        location: event?.location ?? '',
        sub_status: event?.sub_status ?? '',
        stage: event?.stage ?? '',
      });
    }
  }
  return checkpoints;
}

/** A `gettrackinfo` item (or a webhook's `data`) as one provider update. */
export function updateFromTrackInfo(
  eventType: ProviderUpdate['event_type'],
  carrier: number | null | undefined,
  info: TrackInfo | null | undefined,
): ProviderUpdate {
  const provider = info?.tracking?.providers?.[0]?.provider;
  const estimate = info?.time_metrics?.estimated_delivery_date;
  return {
    event_type: eventType,
    carrier_code: carrier ?? provider?.key ?? null,
    carrier_name: provider?.name ?? null,
    provider_status: info?.latest_status?.status ?? null,
    provider_sub_status: info?.latest_status?.sub_status ?? null,
    latest_event_at: date(info?.latest_event?.time_utc),
    latest_event_description: info?.latest_event?.description ?? null,
    latest_event_location: info?.latest_event?.location ?? null,
    // The end of the window: "delivered by" is the later bound.
    estimated_delivery_at: date(estimate?.to ?? estimate?.from),
    picked_up_at: date(info?.milestone?.find((stage) => stage.key_stage === 'PickedUp')?.time_utc),
    checkpoints: checkpointsOf(info),
  };
}
