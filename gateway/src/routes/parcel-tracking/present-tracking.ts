import type { TrackingRow } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { isoOrNull } from '../../http/timestamps.js';

/** Exactly the specification's tracking row fields, in its order. */
export function presentTracking(row: TrackingRow) {
  return {
    id: row.id,
    trackable_type: row.trackable_type,
    trackable_id: row.trackable_id,
    trackable_label: row.trackable_label,
    trackable_url: row.trackable_url,
    tracking_number: row.tracking_number,
    carrier_code: row.carrier_code ?? null,
    carrier_name: row.carrier_name ?? null,
    delivery_status: row.delivery_status,
    delivery_status_label: row.delivery_status_label,
    delivery_status_color: row.delivery_status_color,
    sub_status: row.sub_status ?? null,
    latest_event_description: row.latest_event_description ?? null,
    latest_event_location: row.latest_event_location ?? null,
    last_event_at: isoOrNull(row.last_event_at),
    estimated_delivery_at: isoOrNull(row.estimated_delivery_at),
    delivered_at: isoOrNull(row.delivered_at),
    picked_up_at: isoOrNull(row.picked_up_at),
    registered_at: isoOrNull(row.registered_at),
    registration_error: row.registration_error ?? null,
    stopped_at: isoOrNull(row.stopped_at),
    created_at: isoOrNull(row.created_at),
  };
}
