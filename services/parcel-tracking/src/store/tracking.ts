import { Schema, type Connection, type Model } from 'mongoose';
import { NO_LEASE } from '@inventory/platform';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../domain/delivery-status.js';

/** A tracking row (the specification's "Tracking row") plus its owner and bookkeeping. */
export interface TrackingDocument {
  id: number;
  tenant_id: string;
  integration_instance_id: number;
  trackable_type: string;
  trackable_id: number;
  trackable_label: string;
  trackable_url: string;
  tracking_number: string;
  carrier_code: number | null;
  carrier_name: string | null;
  delivery_status: DeliveryStatus;
  sub_status: string | null;
  latest_event_description: string | null;
  latest_event_location: string | null;
  last_event_at: Date | null;
  estimated_delivery_at: Date | null;
  delivered_at: Date | null;
  picked_up_at: Date | null;
  registered_at: Date | null;
  registration_error: string | null;
  /** When registration last failed; groups registration_errors by recency. */
  registration_failed_at: Date | null;
  /**
   * When registration was given up (a rejection retrying cannot fix, e.g. an undetectable
   * carrier). Until then an unregistered row is pending, retried rejections included (ADR 0212).
   */
  registration_given_up_at: Date | null;
  /** The fingerprint of the API key that registered the row (ADR 0213); null before. */
  registered_key_ref?: string | null;
  /**
   * When the row took over the provider's existing registration of its number instead of spending
   * a quota unit (ADR 0236); absent on rows that registered (or older rows).
   */
  registration_reused_at?: Date | null;
  stopped_at: Date | null;
  /** When the provider confirmed the stop (after a disconnect). */
  provider_stopped_at: Date | null;
  /** False once stopped_at is set; one active row per number per instance (unique index). */
  active: boolean;
  sales_channel_id: number | null;
  sub_channel_id: number | null;
  /** A worker's claim on the row (registration, polling, stopping); free when past. */
  lease_owner: string | null;
  lease_until: Date | null;
  /** Which claim took the lease: a claim reads back the rows it won (TrackingRepository). */
  lease_token?: string;
  /** Transient registration failures so far, and when the next attempt may run. */
  registration_attempts: number;
  next_attempt_at: Date | null;
  last_polled_at: Date | null;
  /** When the delivery side effects fired (at most once per shipment). */
  delivery_effects_at: Date | null;
  /**
   * When the row became delivered, or a field its transit statistics read changed after: the
   * instance's kept per-day transit sums redo that day (ADR 0239). Absent before delivery.
   */
  transit_changed_at?: Date | null;
  /** When the shipment's stalled and late alerts were raised: each once per shipment (ADR 0218). */
  stalled_alerted_at?: Date | null;
  late_alerted_at?: Date | null;
  /** The last webhook event applied and the status it moved from (idempotent retries). */
  last_webhook_event_id: number | null;
  last_status_from: string | null;
  /** Bumped by every status write; conditional writes compare it. */
  revision: number;
  created_at: Date;
  updated_at: Date;
}

const nullable = <T extends NumberConstructor | StringConstructor | DateConstructor>(type: T) => ({
  type,
  default: null,
});

const schema = new Schema<TrackingDocument>(
  {
    id: { type: Number, required: true },
    tenant_id: { type: String, required: true },
    integration_instance_id: { type: Number, required: true },
    trackable_type: { type: String, required: true },
    trackable_id: { type: Number, required: true },
    trackable_label: { type: String, default: '' },
    trackable_url: { type: String, default: '' },
    tracking_number: { type: String, required: true },
    carrier_code: nullable(Number),
    carrier_name: nullable(String),
    delivery_status: { type: String, required: true, enum: DELIVERY_STATUSES },
    sub_status: nullable(String),
    latest_event_description: nullable(String),
    latest_event_location: nullable(String),
    last_event_at: nullable(Date),
    estimated_delivery_at: nullable(Date),
    delivered_at: nullable(Date),
    picked_up_at: nullable(Date),
    registered_at: nullable(Date),
    registration_error: nullable(String),
    registration_failed_at: nullable(Date),
    registration_given_up_at: nullable(Date),
    registered_key_ref: nullable(String),
    registration_reused_at: nullable(Date),
    stopped_at: nullable(Date),
    provider_stopped_at: nullable(Date),
    active: { type: Boolean, default: true },
    sales_channel_id: nullable(Number),
    sub_channel_id: nullable(Number),
    lease_owner: nullable(String),
    // The platform's empty lease (ADR 0018); rows stored before it keep null, which is empty too.
    lease_until: { type: Date, default: NO_LEASE },
    lease_token: { type: String },
    registration_attempts: { type: Number, default: 0 },
    next_attempt_at: nullable(Date),
    last_polled_at: nullable(Date),
    delivery_effects_at: nullable(Date),
    transit_changed_at: { type: Date },
    stalled_alerted_at: nullable(Date),
    late_alerted_at: nullable(Date),
    last_webhook_event_id: nullable(Number),
    last_status_from: nullable(String),
    revision: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'tracking_rows' },
);
// A row by id, and the tenant's rows in id order. Not unique: the unique `{id}` is dropped by name.
schema.index({ tenant_id: 1, id: 1 });
// The trackings list: every sort (created_at, last_event_at, delivered_at) ends with id, as the
// list's tie-break does, so an index serves the whole sort and a page reads only its rows; the
// same sorts under a delivery-status filter ($in branches merged in sort order) likewise.
schema.index({ tenant_id: 1, integration_instance_id: 1, created_at: -1, id: -1 });
schema.index({ tenant_id: 1, integration_instance_id: 1, last_event_at: -1, id: -1 });
schema.index({ tenant_id: 1, integration_instance_id: 1, delivered_at: -1, id: -1 });
schema.index({
  tenant_id: 1,
  integration_instance_id: 1,
  delivery_status: 1,
  created_at: -1,
  id: -1,
});
schema.index({
  tenant_id: 1,
  integration_instance_id: 1,
  delivery_status: 1,
  last_event_at: -1,
  id: -1,
});
// Led by the shard key (deploy/SCALING.md), as a sharded collection's unique index must be; the
// id itself is unique because the counter hands each one out once (ADR 0237).
schema.index(
  { tenant_id: 1, integration_instance_id: 1, tracking_number: 1, id: 1 },
  { unique: true },
);
// A number's rows; with the registering key next, so the rows a re-added number may take a
// registration over from are found without reading the batch's own unregistered rows (ADR 0236),
// and in id order (else the unique index above, which serves that order, is the one taken).
schema.index({
  tenant_id: 1,
  integration_instance_id: 1,
  tracking_number: 1,
  registered_key_ref: 1,
  id: 1,
});
// The dashboard's rows not registered yet: pending (not given up) and failed (grouped by error).
// The points on null bound both to the unregistered rows instead of the whole instance; `id` last
// holds the registration queue's candidates in its claim order (tracking-queries.ts, ADR 0212).
schema.index({
  tenant_id: 1,
  integration_instance_id: 1,
  registered_at: 1,
  registration_given_up_at: 1,
  id: 1,
});
// The polling queue's due rows only: active, not terminal, then never polled (null) and
// registered, or polled before the stale time (tracking-queries.ts, ADR 0730).
schema.index({
  tenant_id: 1,
  integration_instance_id: 1,
  active: 1,
  delivery_status: 1,
  last_polled_at: 1,
  registered_at: 1,
});
// The stopping queue's due rows only: not stopped at the provider, then delivered long enough
// ago (active), or stopped here (inactive) (ADR 0730).
schema.index({
  tenant_id: 1,
  integration_instance_id: 1,
  provider_stopped_at: 1,
  active: 1,
  delivered_at: 1,
});
schema.index({ tenant_id: 1, trackable_type: 1, trackable_id: 1 });
// The carriers seen, and a name for each, from index entries (carriersSeen; ADR 0219).
schema.index({ tenant_id: 1, integration_instance_id: 1, carrier_code: 1, carrier_name: 1 });
// The delivered rows whose transit statistics changed since the instance's sums were kept (ADR 0239).
schema.index({ tenant_id: 1, integration_instance_id: 1, transit_changed_at: 1, delivered_at: 1 });
// Registrations that re-used one, counted from the index by the worker's forecast (ADR 0235).
schema.index({ tenant_id: 1, integration_instance_id: 1, registration_reused_at: 1 });
// Stalled and late rows (the dashboard's counts, the list's filters; ADR 0218): every field of
// each condition is in its index, so a count is counted from index entries, reading no row (at
// 100,000 rows with 13,000 stalled, reading each row to check `active` cost 200 ms a count).
schema.index({
  tenant_id: 1,
  integration_instance_id: 1,
  delivery_status: 1,
  active: 1,
  last_event_at: 1,
});
schema.index({
  tenant_id: 1,
  integration_instance_id: 1,
  active: 1,
  delivery_status: 1,
  estimated_delivery_at: 1,
});
// The rows still to alert about: the point on a null marker bounds each sweep to the rows not
// alerted yet, however many stalled or late rows were alerted before (ADR 0218).
schema.index({
  tenant_id: 1,
  integration_instance_id: 1,
  stalled_alerted_at: 1,
  delivery_status: 1,
  last_event_at: 1,
});
schema.index({
  tenant_id: 1,
  integration_instance_id: 1,
  late_alerted_at: 1,
  estimated_delivery_at: 1,
});
// A number is tracked (and so registered) once per instance: concurrent intake on
// several replicas cannot create a second active row for it.
schema.index(
  { tenant_id: 1, integration_instance_id: 1, tracking_number: 1, active: 1 },
  { unique: true, partialFilterExpression: { active: true }, name: 'one_active_row_per_number' },
);

export type NewTracking = Omit<
  TrackingDocument,
  'id' | 'created_at' | 'updated_at' | keyof NullableDefaults | keyof WorkDefaults
> &
  Partial<WorkDefaults> &
  Partial<NullableDefaults> & { created_at?: Date };
type WorkDefaults = Pick<
  TrackingDocument,
  | 'active'
  | 'sales_channel_id'
  | 'sub_channel_id'
  | 'lease_owner'
  | 'lease_until'
  | 'registration_attempts'
  | 'next_attempt_at'
  | 'last_polled_at'
  | 'delivery_effects_at'
  | 'last_webhook_event_id'
  | 'last_status_from'
  | 'revision'
>;
type NullableDefaults = Pick<
  TrackingDocument,
  | 'carrier_code'
  | 'carrier_name'
  | 'sub_status'
  | 'latest_event_description'
  | 'latest_event_location'
  | 'last_event_at'
  | 'estimated_delivery_at'
  | 'delivered_at'
  | 'picked_up_at'
  | 'registered_at'
  | 'registration_error'
  | 'registration_failed_at'
  | 'registration_given_up_at'
  | 'stopped_at'
  | 'provider_stopped_at'
  | 'trackable_label'
  | 'trackable_url'
>;

/** The tracking rows' model, which TrackingRepository reads and works. */
export function trackingModel(connection: Connection): Model<TrackingDocument> {
  return (
    (connection.models.Tracking as Model<TrackingDocument> | undefined) ??
    connection.model<TrackingDocument>('Tracking', schema)
  );
}

/**
 * A date field that is set: a range, which bounds an index to the rows that have one, where
 * `$ne: null` is no bound at all (every row without one would be read to find none).
 */
export const IS_SET = { $gte: new Date(0) };

/** Indexes an earlier release created that no query uses any more: dropped at start (ADR 0720). */
export const RETIRED_TRACKING_INDEXES = [
  'tenant_id_1_integration_instance_id_1_registration_error_1',
  'tenant_id_1_integration_instance_id_1_registered_at_1_registration_error_1',
  // ADR 0212: pending is "not given up", no longer "no error".
  'tenant_id_1_integration_instance_id_1_registered_at_1_registration_error_1_id_1',
  // ADR 0730: the polling and stopping queues' id-order walks, and an index no query used.
  'tenant_id_1_integration_instance_id_1_active_1_id_1',
  'tenant_id_1_integration_instance_id_1_provider_stopped_at_1_id_1',
  'integration_instance_id_1_active_1_registered_at_1',
  // ADR 0218: the stalled and late conditions' indexes hold every field they test.
  'tenant_id_1_integration_instance_id_1_delivery_status_1_last_event_at_1',
  'tenant_id_1_integration_instance_id_1_estimated_delivery_at_1',
  // ADR 0236: the number's index took the registering key as its last field.
  'tenant_id_1_integration_instance_id_1_tracking_number_1',
  // ADR 0237: a unique index of a sharded collection starts with its shard key; the number's
  // index took the id last, for the order of its reads.
  'id_1',
  'tenant_id_1_integration_instance_id_1_tracking_number_1_registered_key_ref_1',
];
