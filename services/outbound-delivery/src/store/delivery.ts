import { Schema, type Connection, type Model } from 'mongoose';
import { NO_LEASE } from '@inventory/platform';
import type { OutboundDeliveryStatus } from '@inventory/rules';

export interface AttemptRecord {
  attempted_at: Date;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
  /** The request as sent, redacted (ADR 0419); absent on attempts recorded before. */
  request_url?: string;
  request_headers?: Record<string, string>;
}

export interface DeliveryDocument {
  /** The delivery UUID sent as X-SVC-Delivery-Id on every attempt. */
  delivery_id: string;
  tenant_id: string;
  subscription_id: number;
  event: string;
  /**
   * `<event id>:<subscription id>` for catalog events (one delivery per pair), else the id;
   * unique per tenant.
   */
  dedupe_key: string;
  /** The serialised envelope, sent byte for byte on every attempt. */
  body: string;
  occurred_at: Date;
  status: OutboundDeliveryStatus;
  /** Attempts made in the current cycle (a redeliver starts a new cycle). */
  cycle_attempts: number;
  /** Whether the current cycle has passed the per-tenant cap. */
  admitted: boolean;
  next_attempt_at: Date;
  /** The worker holding the delivery (ADR 0018); null when none does (or fan-out stored it leased). */
  lease_owner: string | null;
  /** A replica holds the delivery until then; past it, another may take it (crash recovery). */
  lease_until: Date;
  /** Which claim holds the lease (a claim reads back exactly the deliveries it won). */
  lease_token?: string;
  attempts: AttemptRecord[];
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<DeliveryDocument>(
  {
    delivery_id: { type: String, required: true },
    tenant_id: { type: String, required: true },
    subscription_id: { type: Number, required: true },
    event: { type: String, required: true },
    dedupe_key: { type: String, required: true },
    body: { type: String, required: true },
    occurred_at: { type: Date, required: true },
    status: { type: String, required: true },
    cycle_attempts: { type: Number, required: true },
    admitted: { type: Boolean, required: true },
    next_attempt_at: { type: Date, required: true },
    lease_owner: { type: String, default: null },
    lease_until: { type: Date, required: true },
    lease_token: { type: String },
    attempts: { type: Schema.Types.Mixed, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'deliveries', minimize: false },
);
// The unique indexes start with the shard key `{tenant_id, dedupe_key}` (deploy/SCALING.md), as a
// sharded collection's must (ADR 0237). A dedupe key names one tenant's event and subscription, so
// the first refuses what `{dedupe_key}` did; a delivery id is its dedupe key's (derived from it,
// or equal to it), so the second refuses what `{delivery_id}` did.
schema.index({ tenant_id: 1, dedupe_key: 1 }, { unique: true });
schema.index({ tenant_id: 1, dedupe_key: 1, delivery_id: 1 }, { unique: true });
// A delivery by id: every look-up names its tenant (the worker's claims too).
schema.index({ tenant_id: 1, delivery_id: 1 });
schema.index({ status: 1, next_attempt_at: 1 });
schema.index({ tenant_id: 1, subscription_id: 1, created_at: -1 });
// A resume takes a subscription's held deliveries oldest event first (ADR 0412).
schema.index(
  { tenant_id: 1, subscription_id: 1, status: 1, occurred_at: 1, created_at: 1 },
  { partialFilterExpression: { status: 'held' } },
);

/** Indexes the schema no longer declares, dropped at start. */
export const RETIRED_DELIVERY_INDEXES = [
  // ADR 0237: a unique index of a sharded collection starts with its shard key.
  'delivery_id_1',
  'dedupe_key_1',
];

export type NewDelivery = Pick<
  DeliveryDocument,
  'delivery_id' | 'tenant_id' | 'subscription_id' | 'event' | 'dedupe_key' | 'body' | 'occurred_at'
>;

/** A lease that ran out long ago: the row is free to claim (the platform's empty lease). */
export const EPOCH = NO_LEASE;

/** A delivery as first scheduled: pending, due `now`, never attempted, not leased. */
export function pendingDelivery(input: NewDelivery, now: Date): DeliveryDocument {
  return {
    ...input,
    status: 'pending',
    cycle_attempts: 0,
    admitted: false,
    next_attempt_at: now,
    lease_owner: null,
    lease_until: EPOCH,
    attempts: [],
    created_at: now,
    updated_at: now,
  };
}

/**
 * A delivery of a paused subscription: stored `held`, which the worker never claims, until a
 * resume releases it (ADR 0412). No attempt, no cap slot yet: the cap counts it when it is sent.
 */
export function heldDelivery(input: NewDelivery, now: Date): DeliveryDocument {
  return { ...pendingDelivery(input, now), status: 'held' };
}

export interface DeliveryFilter {
  status?: string;
  event?: string;
}

export interface Settle {
  delivery: Pick<DeliveryDocument, 'delivery_id' | 'tenant_id'>;
  changes: Partial<
    Pick<DeliveryDocument, 'status' | 'cycle_attempts' | 'admitted' | 'next_attempt_at'>
  >;
  attempt?: AttemptRecord;
}

/** The `deliveries` collection's one model on a connection (kept private by `DeliveryRepository`). */
export function deliveryModel(connection: Connection): Model<DeliveryDocument> {
  return connection.model<DeliveryDocument>('Delivery', schema);
}
