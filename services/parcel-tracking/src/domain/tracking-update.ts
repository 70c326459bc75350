import type { ProviderCheckpoint } from './checkpoints.js';
import { mapProviderStatus, type DeliveryStatus } from './delivery-status.js';

/** One provider update of a number, from a webhook or a `gettrackinfo` answer (DESIGN §8). */
export interface ProviderUpdate {
  event_type: 'TRACKING_UPDATED' | 'TRACKING_STOPPED';
  carrier_code?: number | null;
  carrier_name?: string | null;
  provider_status?: string | null;
  provider_sub_status?: string | null;
  latest_event_at?: Date | null;
  latest_event_description?: string | null;
  latest_event_location?: string | null;
  estimated_delivery_at?: Date | null;
  picked_up_at?: Date | null;
  /** The carrier's event history reported with this update (kept apart from the row, ADR 0216). */
  checkpoints?: ProviderCheckpoint[];
}

/** The parts of a row the status machine reads. */
export interface RowStatus {
  delivery_status: DeliveryStatus;
  sub_status: string | null;
  last_event_at: Date | null;
  latest_event_description: string | null;
  carrier_code: number | null;
  delivered_at: Date | null;
  picked_up_at: Date | null;
  stopped_at: Date | null;
}

export type UpdateOutcome = 'applied' | 'unknown_number' | 'stopped' | 'duplicate' | 'stale';

export interface UpdateDecision {
  outcome: UpdateOutcome;
  status_from: DeliveryStatus;
  status_to: DeliveryStatus;
  /** Fields to write when applied. */
  changes: Partial<RowStatus> & Record<string, unknown>;
  /** True when this update makes the row delivered for the first time (side effects). */
  became_delivered: boolean;
}

const time = (date: Date | null | undefined) => (date ? date.getTime() : null);

/**
 * The one status machine, shared by webhooks and polling. Rules (ADR 0206):
 * a stopped row only takes TRACKING_STOPPED; an event older than the row's
 * last event is stale (a row never moves backwards); the same event the row
 * holds (same time, status, sub-status and description) is a duplicate; an
 * update without an event time cannot replace a row that has one.
 */
export function decideUpdate(row: RowStatus, update: ProviderUpdate, now: Date): UpdateDecision {
  const from = row.delivery_status;
  const ignored = (outcome: UpdateOutcome): UpdateDecision => ({
    outcome,
    status_from: from,
    status_to: from,
    changes: {},
    became_delivered: false,
  });
  if (update.event_type === 'TRACKING_STOPPED') {
    if (row.stopped_at) return ignored('duplicate');
    return {
      outcome: 'applied',
      status_from: from,
      status_to: from,
      changes: { stopped_at: now },
      became_delivered: false,
    };
  }
  if (row.stopped_at) return ignored('stopped');

  const incoming = time(update.latest_event_at);
  const held = time(row.last_event_at);
  if (held !== null && (incoming === null || incoming < held)) return ignored('stale');
  const to = mapProviderStatus(update.provider_status);
  const subStatus = update.provider_sub_status ?? null;
  const description = update.latest_event_description ?? null;
  if (
    incoming === held &&
    to === from &&
    subStatus === row.sub_status &&
    description === row.latest_event_description
  )
    return ignored('duplicate');

  const changes: UpdateDecision['changes'] = {
    delivery_status: to,
    sub_status: subStatus,
    latest_event_description: description,
    latest_event_location: update.latest_event_location ?? null,
    last_event_at: update.latest_event_at ?? null,
  };
  if (update.estimated_delivery_at) changes.estimated_delivery_at = update.estimated_delivery_at;
  if (update.carrier_code && row.carrier_code === null) changes.carrier_code = update.carrier_code;
  if (update.carrier_name) changes.carrier_name = update.carrier_name;
  const pickedUp =
    update.picked_up_at ?? (subStatus === 'InTransit_PickedUp' ? update.latest_event_at : null);
  if (pickedUp && !row.picked_up_at) changes.picked_up_at = pickedUp;
  const becameDelivered = to === 'delivered' && !row.delivered_at;
  if (becameDelivered) changes.delivered_at = update.latest_event_at ?? now;
  return {
    outcome: 'applied',
    status_from: from,
    status_to: to,
    changes,
    became_delivered: becameDelivered,
  };
}
