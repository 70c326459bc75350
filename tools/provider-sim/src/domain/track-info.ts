import { findCarrier } from './carriers.js';
import { daysBetween, toIso, toRaw, toUtc } from './time.js';
import { KEY_STAGES } from './types.js';
import type {
  Clock,
  EstimatedDelivery,
  KeyStage,
  MainStatus,
  TrackEvent,
  Tracking,
} from './types.js';

export interface TrackInfo {
  shipping_info: {
    shipper_address: { country: string | null };
    recipient_address: { country: string | null };
  };
  latest_status: { status: MainStatus; sub_status: string; sub_status_descr: string | null };
  latest_event: TrackEvent | null;
  time_metrics: {
    days_after_order: number;
    days_of_transit: number;
    days_of_transit_done: number;
    days_after_last_update: number;
    estimated_delivery_date: EstimatedDelivery;
  };
  milestone: Array<{
    key_stage: KeyStage;
    time_iso: string | null;
    time_utc: string | null;
    time_raw: { date: string | null; time: string | null; timezone: string | null };
  }>;
  misc_info: { risk_factor: number; service_type: null; weight_raw: null; pieces: null };
  tracking: {
    providers_hash: number;
    providers: Array<{
      provider: {
        key: number;
        name: string;
        alias: string;
        tel: string;
        homepage: string;
        country: string;
      };
      service_type: null;
      latest_sync_status: 'Success';
      latest_sync_time: string;
      events_hash: number;
      events: TrackEvent[];
    }>;
  };
}

/** Small stable hash (17TRACK exposes hashes so clients can skip unchanged data). */
function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i += 1) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
  return h;
}

/** The `track_info` object of a tracking, 17TRACK v2.2 shape. */
export function buildTrackInfo(t: Tracking, clock: Clock): TrackInfo {
  const now = clock();
  const carrier = findCarrier(t.carrier);
  const offset = carrier?.utcOffset ?? '+00:00';
  const latest = t.events[0] ?? null;
  const pickedUp = t.milestones.PickedUp;
  const delivered = t.milestones.Delivered;
  const transitEnd = delivered ?? now;
  const eventsHash = hash(JSON.stringify(t.events));
  return {
    shipping_info: {
      shipper_address: { country: carrier?.country ?? null },
      recipient_address: { country: carrier?.country ?? null },
    },
    latest_status: {
      status: t.status,
      sub_status: t.subStatus,
      sub_status_descr: t.subStatusDescr,
    },
    latest_event: latest,
    time_metrics: {
      days_after_order: daysBetween(t.registeredAt, now),
      days_of_transit: pickedUp ? daysBetween(pickedUp, transitEnd) : 0,
      days_of_transit_done: pickedUp && delivered ? daysBetween(pickedUp, delivered) : 0,
      days_after_last_update: latest ? daysBetween(new Date(latest.time_utc), now) : 0,
      estimated_delivery_date: { ...t.estimatedDelivery },
    },
    milestone: KEY_STAGES.map((stage) => {
      const at = t.milestones[stage];
      return {
        key_stage: stage,
        time_iso: at ? toIso(at, offset) : null,
        time_utc: at ? toUtc(at) : null,
        time_raw: at ? toRaw(at, offset) : { date: null, time: null, timezone: null },
      };
    }),
    misc_info: { risk_factor: 0, service_type: null, weight_raw: null, pieces: null },
    tracking: {
      providers_hash: hash(`${t.carrier}:${eventsHash}`),
      providers: [
        {
          provider: {
            key: t.carrier,
            name: carrier?.name ?? String(t.carrier),
            alias: carrier?.name ?? String(t.carrier),
            tel: '',
            homepage: carrier?.homepage ?? '',
            country: carrier?.country ?? '',
          },
          service_type: null,
          latest_sync_status: 'Success',
          latest_sync_time: toIso(now, offset),
          events_hash: eventsHash,
          events: t.events.map((e) => ({ ...e })),
        },
      ],
    },
  };
}
