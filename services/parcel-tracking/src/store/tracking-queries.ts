import { escapeRegex, type ScopedFilter } from '@inventory/platform';
import { DELIVERY_STATUSES, TERMINAL_STATUSES } from '../domain/delivery-status.js';
import {
  lateConditions,
  stalledConditions,
  type StalledThresholds,
} from '../domain/shipment-watch.js';
import { utcDay, utcDaysFrom } from '../domain/utc-days.js';
import { IS_SET, type TrackingDocument } from './tracking.js';

/**
 * The tracking rows' pure query builders: filters, sorts and projections the repository
 * (tracking-repository.ts) sends. Nothing here reads or writes.
 */

export type TrackingFilter = ScopedFilter<TrackingDocument>;

/** Provider numbers match case-insensitively; rows keep them trimmed and upper-case. */
export const normalizeNumber = (number: string) => number.trim().toUpperCase();

/** The instance's rows matching `filter`. */
export function ofInstance(instanceId: number, filter: TrackingFilter = {}): TrackingFilter {
  return { integration_instance_id: instanceId, ...filter };
}

/**
 * Of two rows of one number, the one an update applies to: the active one, else the latest. Picked
 * here rather than by a sort in the query: sorted by `{active, id}`, the planner walked the
 * instance's `{active, id}` queue index (ADR 0727) instead of reading the number's few rows.
 */
export function preferApplicable(
  best: TrackingDocument | null,
  row: TrackingDocument,
): TrackingDocument {
  if (!best) return row;
  if (row.active !== best.active) return row.active ? row : best;
  return row.id > best.id ? row : best;
}

/** The fields the transit statistics read of a delivered row (`DeliveredRow`). */
export const DELIVERED_ROW_PROJECTION = {
  _id: 0,
  carrier_code: 1,
  carrier_name: 1,
  created_at: 1,
  picked_up_at: 1,
  delivered_at: 1,
  estimated_delivery_at: 1,
} as const;

export interface TrackingListQuery {
  search: string;
  deliveryStatuses: string[];
  carrierCodes: number[];
  trackableTypes: string[];
  createdFrom?: Date;
  createdBefore?: Date;
  /** Only stalled rows at `now` under these thresholds (ADR 0218). */
  stalledAt?: { now: Date; thresholds: StalledThresholds };
  /** Only late rows: past their estimated delivery at this time, not delivered. */
  lateAt?: Date;
  sortField: 'created_at' | 'last_event_at' | 'delivered_at';
  descending: boolean;
  page: number;
  perPage: number;
}

/** The trackings list's filter over the rows of these instances (an instance and its history). */
export function listFilter(instanceIds: number[], query: TrackingListQuery): TrackingFilter {
  const filter: TrackingFilter = {
    integration_instance_id: instanceIds.length === 1 ? instanceIds[0]! : { $in: instanceIds },
  };
  if (query.search) filter.tracking_number = new RegExp(escapeRegex(query.search), 'i');
  if (query.deliveryStatuses.length > 0) filter.delivery_status = { $in: query.deliveryStatuses };
  if (query.carrierCodes.length > 0) filter.carrier_code = { $in: query.carrierCodes };
  if (query.trackableTypes.length > 0) filter.trackable_type = { $in: query.trackableTypes };
  if (query.createdFrom || query.createdBefore)
    filter.created_at = {
      ...(query.createdFrom ? { $gte: query.createdFrom } : {}),
      ...(query.createdBefore ? { $lt: query.createdBefore } : {}),
    };
  const watched: Array<Record<string, unknown>> = [];
  if (query.stalledAt)
    watched.push(stalledConditions(query.stalledAt.now, query.stalledAt.thresholds));
  if (query.lateAt) watched.push(lateConditions(query.lateAt));
  if (watched.length > 0) (filter as Record<string, unknown>).$and = watched;
  return filter;
}

/** The list's sort: the field asked for, then id, the tie-break every list index ends with. */
export function listSort(query: TrackingListQuery): Record<string, 1 | -1> {
  const direction = query.descending ? -1 : 1;
  return { [query.sortField]: direction, id: direction };
}

export type WorkKind = 'register' | 'poll' | 'stop';

/** Which alert a watch sweep looks for, at `now`. */
export type WatchAlert =
  { kind: 'stalled'; now: Date; thresholds: StalledThresholds } | { kind: 'late'; now: Date };

/** What an alert about a row says. */
export const WATCH_ALERT_PROJECTION = {
  id: 1,
  integration_instance_id: 1,
  trackable_type: 1,
  trackable_id: 1,
  trackable_label: 1,
  trackable_url: 1,
  tracking_number: 1,
  carrier_code: 1,
  carrier_name: 1,
  last_event_at: 1,
  estimated_delivery_at: 1,
} as const;

/** The statuses polling still asks about, as points an index can bound (`$nin` cannot). */
const NOT_TERMINAL = DELIVERY_STATUSES.filter((status) => !TERMINAL_STATUSES.includes(status));

export interface DueQuery {
  filter: TrackingFilter;
  /** The order the query's index serves: a claim stops reading at its limit. */
  sort: Record<string, 1>;
}

export interface ClaimOptions {
  tenantId: string;
  instanceId: number;
  /** This worker's id; only the owner can release what it claimed (with the claim's token). */
  owner: string;
  now: Date;
  leaseMs: number;
  limit: number;
  /** Polling: rows not refreshed since this time are due. */
  staleBefore?: Date;
  /** Stopping: rows delivered before this time are due. */
  deliveredBefore?: Date;
  /**
   * Registration: only rows with a greater id. A pass claims batch after batch in id order, and
   * each claim walks the index on from the last row claimed instead of from the start again (a
   * refused row stays queued behind the walk). Polling and stopping need none: a handled row
   * leaves their queues.
   */
  afterId?: number;
}

/**
 * The queue's due rows, as index-bounded queries taken in turn, each with the order its index
 * serves (so a claim reads only the rows it takes): registration's one, walked in id order from
 * `afterId` (a row refused for now stays queued until its next attempt); polling's and stopping's two
 * each, bounded to the rows due (ADR 0730), which a handled row leaves, oldest first.
 */
export function dueQueries(kind: WorkKind, options: ClaimOptions): DueQuery[] {
  const base = { integration_instance_id: options.instanceId };
  if (kind === 'register')
    return [
      {
        filter: {
          ...base,
          active: true,
          registered_at: null,
          registration_given_up_at: null,
          $or: [{ next_attempt_at: null }, { next_attempt_at: { $lte: options.now } }],
        },
        sort: { id: 1 },
      },
    ];
  if (kind === 'poll') {
    const pollable = { ...base, active: true, delivery_status: { $in: NOT_TERMINAL } };
    return [
      // Registered and never polled: due at once.
      {
        filter: { ...pollable, last_polled_at: null, registered_at: IS_SET },
        sort: { registered_at: 1 },
      },
      {
        filter: { ...pollable, last_polled_at: { $lt: options.staleBefore } },
        sort: { last_polled_at: 1 },
      },
    ];
  }
  // Stop: delivered long enough ago, or stopped here (number changed or removed) but not yet
  // there. A row never registered is claimed too, and marked stopped without a call.
  const notStoppedThere = { ...base, provider_stopped_at: null };
  return [
    {
      filter: {
        ...notStoppedThere,
        active: true,
        delivered_at: { $ne: null, $lte: options.deliveredBefore },
      },
      sort: { delivered_at: 1 },
    },
    {
      filter: { ...notStoppedThere, active: false, stopped_at: { $ne: null } },
      sort: { delivered_at: 1 },
    },
  ];
}

/**
 * Rows still waiting to be registered: never registered, not given up, not stopped. A row whose
 * registration failed and will be retried (a failed call, an exhausted quota) is still pending.
 */
export const pendingRegistration = (instanceId: number): TrackingFilter =>
  ofInstance(instanceId, { registered_at: null, registration_given_up_at: null, stopped_at: null });

/** The instance's rows a disconnect stops here: not stopped, not in a terminal status. */
export const stillActive = (instanceId: number): TrackingFilter =>
  ofInstance(instanceId, { stopped_at: null, delivery_status: { $nin: TERMINAL_STATUSES } });

/**
 * The instance's rows the provider may still track, not only the active ones: a delivered row
 * waits STOP_DELIVERED_AFTER_MS for the stopping worker, which never runs for a deleted instance.
 */
export const trackedAtProvider = (instanceId: number): TrackingFilter =>
  ofInstance(instanceId, { registered_at: { $ne: null }, provider_stopped_at: null });

/** The dashboard's count per delivery status, as one `$group`. */
export const STATUS_COUNT_PIPELINE = [{ $group: { _id: '$delivery_status', count: { $sum: 1 } } }];

/** Each carrier code of the instance's rows once, with a name one of its rows carries. */
export const CARRIERS_SEEN_PIPELINE = [
  { $group: { _id: '$carrier_code', rows: { $sum: 1 } } },
  { $sort: { _id: 1 as const } },
];

/** By UTC day (`YYYY-MM-DD`) from `since`'s to `now`'s, the days' counts that are not zero. */
export async function countEachUtcDay(
  since: Date,
  now: Date,
  countIn: (day: { start: Date; end: Date }) => Promise<number>,
): Promise<Map<string, number>> {
  const days = utcDaysFrom(since, now);
  const counts = await Promise.all(days.map(countIn));
  return new Map(
    days
      .map(({ start }, index) => [utcDay(start), counts[index]!] as const)
      .filter(([, count]) => count > 0),
  );
}

export interface CarrierSeenGroup {
  _id: number;
  rows: number;
}

export interface RegistrationErrorGroup {
  _id: string;
  count: number;
  last: Date | null;
  updated: Date;
}

/** The registration errors of unregistered rows, grouped by message (`RegistrationErrorGroup`). */
export const registrationErrorsOf = (instanceId: number): TrackingFilter =>
  ofInstance(instanceId, { registration_error: { $ne: null }, registered_at: null });

export const REGISTRATION_ERROR_PIPELINE = [
  {
    $group: {
      _id: '$registration_error',
      count: { $sum: 1 },
      last: { $max: '$registration_failed_at' },
      updated: { $max: '$updated_at' },
    },
  },
];

/** The groups as the dashboard lists them: most frequent first, then the latest failure first. */
export interface RegistrationError {
  message: string;
  count: number;
  last_failed_at: Date;
}

export function rankRegistrationErrors(groups: RegistrationErrorGroup[]): RegistrationError[] {
  return groups
    .map((group) => ({
      message: group._id,
      count: group.count,
      last_failed_at: group.last ?? group.updated,
    }))
    .sort((a, b) => b.count - a.count || b.last_failed_at.getTime() - a.last_failed_at.getTime());
}

/** The rows of many numbers, by number: for each, the row an update applies to. */
export function applicableByNumber(rows: TrackingDocument[]): Map<string, TrackingDocument> {
  const byNumber = new Map<string, TrackingDocument>();
  for (const row of rows)
    byNumber.set(
      row.tracking_number,
      preferApplicable(byNumber.get(row.tracking_number) ?? null, row),
    );
  return byNumber;
}

/** A number to stop at the provider, with the key that registered it (ADR 0213). */
export interface ProviderStop {
  number: string;
  carrier: number | null;
  key_ref: string | null;
}

export const PROVIDER_STOP_PROJECTION = {
  tracking_number: 1,
  carrier_code: 1,
  registered_key_ref: 1,
};

export const providerStopOf = (
  row: Pick<TrackingDocument, 'tracking_number' | 'carrier_code' | 'registered_key_ref'>,
): ProviderStop => ({
  number: row.tracking_number,
  carrier: row.carrier_code,
  key_ref: row.registered_key_ref ?? null,
});
