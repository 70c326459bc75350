import { validationFailed } from '@inventory/platform';
import {
  TRACKING_SORTS,
  TRACKINGS_DEFAULT_PER_PAGE,
  TRACKINGS_MAX_PER_PAGE,
  readPage,
} from '@inventory/rules';
import {
  TrackingUpdateOutcome,
  type Checkpoint,
  type ListTrackingsRequest,
  type ProviderTrackingUpdate,
  type TrackingRow,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { presentStatus } from '../domain/delivery-status.js';
import type { ProviderUpdate } from '../domain/tracking-update.js';
import type { CheckpointDocument } from '../store/checkpoint.js';
import type { TrackingListQuery } from '../store/tracking-queries.js';
import type { TrackingDocument } from '../store/tracking.js';

const OUTCOMES: Record<string, TrackingUpdateOutcome> = {
  applied: TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_APPLIED,
  unknown_number: TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_UNKNOWN_NUMBER,
  stopped: TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_STOPPED,
  duplicate: TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_DUPLICATE,
  stale: TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_STALE,
};

export const toOutcome = (outcome: string): TrackingUpdateOutcome =>
  OUTCOMES[outcome] ?? TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_UNSPECIFIED;

export function fromProviderUpdate(
  update: ProviderTrackingUpdate | undefined,
): ProviderUpdate & { tracking_number: string } {
  return {
    event_type: update?.event_type === 'TRACKING_STOPPED' ? 'TRACKING_STOPPED' : 'TRACKING_UPDATED',
    tracking_number: update?.tracking_number ?? '',
    carrier_code: update?.carrier_code ?? null,
    provider_status: update?.provider_status ?? null,
    provider_sub_status: update?.provider_sub_status ?? null,
    latest_event_at: update?.latest_event_at ?? null,
    latest_event_description: update?.latest_event_description ?? null,
    latest_event_location: update?.latest_event_location ?? null,
    estimated_delivery_at: update?.estimated_delivery_at ?? null,
    picked_up_at: update?.picked_up_at ?? null,
    checkpoints: (update?.checkpoints ?? []).map((checkpoint) => ({
      occurred_at: checkpoint.occurred_at ?? new Date(Number.NaN),
      description: checkpoint.description,
      location: checkpoint.location,
      sub_status: checkpoint.sub_status,
      stage: checkpoint.stage,
    })),
  };
}

/** Zero is proto's "not set" (the default); above the one maximum is refused, never clamped. */
export function fromListRequest(
  request: ListTrackingsRequest,
): TrackingListQuery & { stalled: boolean; late: boolean } {
  const { perPage, violations } = readPage(request, {
    defaultPerPage: TRACKINGS_DEFAULT_PER_PAGE,
    maxPerPage: TRACKINGS_MAX_PER_PAGE,
  });
  if (violations.length > 0) throw validationFailed(violations);
  const sortField = (TRACKING_SORTS as readonly string[]).includes(request.sort_field)
    ? (request.sort_field as TrackingListQuery['sortField'])
    : 'created_at';
  return {
    search: request.search,
    deliveryStatuses: request.delivery_statuses,
    carrierCodes: request.carrier_codes,
    trackableTypes: request.trackable_types,
    createdFrom: request.created_from,
    createdBefore: request.created_before,
    sortField,
    descending: request.sort_field ? request.sort_descending : true,
    page: Math.max(1, request.page || 1),
    perPage,
    stalled: request.stalled,
    late: request.late,
  };
}

const opt = <T>(value: T | null): T | undefined => value ?? undefined;

export function toTrackingRow(row: TrackingDocument): TrackingRow {
  return {
    id: row.id,
    trackable_type: row.trackable_type,
    trackable_id: row.trackable_id,
    trackable_label: row.trackable_label,
    trackable_url: row.trackable_url,
    tracking_number: row.tracking_number,
    carrier_code: opt(row.carrier_code),
    carrier_name: opt(row.carrier_name),
    delivery_status: row.delivery_status,
    delivery_status_label: presentStatus(row.delivery_status).label,
    delivery_status_color: presentStatus(row.delivery_status).color,
    sub_status: opt(row.sub_status),
    latest_event_description: opt(row.latest_event_description),
    latest_event_location: opt(row.latest_event_location),
    last_event_at: opt(row.last_event_at),
    estimated_delivery_at: opt(row.estimated_delivery_at),
    delivered_at: opt(row.delivered_at),
    picked_up_at: opt(row.picked_up_at),
    registered_at: opt(row.registered_at),
    registration_error: opt(row.registration_error),
    stopped_at: opt(row.stopped_at),
    created_at: row.created_at,
  };
}

export function toCheckpoint(checkpoint: CheckpointDocument): Checkpoint {
  return {
    occurred_at: checkpoint.occurred_at,
    description: checkpoint.description,
    location: checkpoint.location,
    status: checkpoint.status,
    sub_status: checkpoint.sub_status,
    stage: checkpoint.stage,
  };
}
