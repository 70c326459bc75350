import { Schema, type Connection, type Model } from 'mongoose';
import { NO_LEASE } from '@inventory/platform';
import type { StoredPayload, TrackingUpdate } from '../domain/payload.js';

export type WebhookResult = 'processed' | 'failed' | 'ignored';
export type SignatureState = 'valid' | 'absent' | 'invalid';

/**
 * The inbound webhook log (the specification's "Webhook event row"). A row is
 * stored durably as soon as a webhook arrives. Rows that can be processed are
 * `state: received` until the processing job claims them (lease) and finishes
 * them with one result (`state: done`); rows refused at ingest (malformed,
 * bad signature) and provider retries are stored `done` at once. ADR 0220/0221.
 */
export interface WebhookEventDocument {
  id: number;
  tenant_id: string;
  integration_instance_id: number;
  provider: string;
  received_at: Date;
  event_type: string;
  tracking_number: string;
  status_from: string | null;
  status_to: string | null;
  summary: string | null;
  payload: StoredPayload | null;
  /** What processing applies; null for rows refused at ingest. */
  update: TrackingUpdate | null;
  raw_body: string;
  content_type: string;
  signature: string | null;
  signature_state: SignatureState;
  /**
   * Unique per tenant and instance: the payload identity for rows to process, `row:<id>` for
   * every other row.
   */
  dedupe_key: string;
  duplicate_of: number | null;
  state: 'received' | 'done';
  result: WebhookResult | null;
  error_message: string | null;
  processing_duration_ms: number | null;
  /** Claims of the row, over every processing (a reprocess counts on). */
  attempts: number;
  /**
   * Which processing this is: 0 the first, one more per reprocess (ADR 0230). parcel-tracking
   * keys its recorded answer by the row id and this, so a reprocess is evaluated again. Absent
   * on rows stored before reprocessing existed: 0.
   */
  generation?: number;
  /** `attempts` when the current processing began: its own claims are counted from here. */
  attempts_base?: number;
  /** The reprocess job that put the row back to processing, if one did. */
  reprocess_job?: string | null;
  lease_owner: string | null;
  lease_until: Date;
  /** Which claim holds the lease (a batch claim reads back exactly the rows it won). */
  lease_token?: string;
  /** Which batch wrote the result (a partly failed batch finds the rows it did finish). */
  finish_token?: string;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<WebhookEventDocument>(
  {
    id: { type: Number, required: true },
    tenant_id: { type: String, required: true },
    integration_instance_id: { type: Number, required: true },
    provider: { type: String, required: true },
    received_at: { type: Date, required: true },
    event_type: { type: String, default: '' },
    tracking_number: { type: String, default: '' },
    status_from: { type: String, default: null },
    status_to: { type: String, default: null },
    summary: { type: String, default: null },
    payload: { type: Schema.Types.Mixed, default: null },
    update: { type: Schema.Types.Mixed, default: null },
    // Not `required`: an empty body is a body (issue 18 #1), stored as failed.
    raw_body: { type: String, default: '' },
    content_type: { type: String, default: '' },
    signature: { type: String, default: null },
    signature_state: { type: String, required: true },
    dedupe_key: { type: String, required: true },
    duplicate_of: { type: Number, default: null },
    state: { type: String, required: true },
    result: { type: String, default: null },
    error_message: { type: String, default: null },
    processing_duration_ms: { type: Number, default: null },
    attempts: { type: Number, default: 0 },
    generation: { type: Number },
    attempts_base: { type: Number },
    reprocess_job: { type: String },
    lease_owner: { type: String, default: null },
    lease_until: { type: Date, required: true },
    lease_token: { type: String },
    finish_token: { type: String },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'webhook_events', minimize: false },
);
// The unique indexes start with the shard key (deploy/SCALING.md), as a sharded collection's must:
// a dedupe key already names its tenant and instance, and the counter hands each id out once, so
// these refuse what `{dedupe_key}` and `{id}` did (ADR 0237).
schema.index({ tenant_id: 1, integration_instance_id: 1, dedupe_key: 1 }, { unique: true });
schema.index({ tenant_id: 1, integration_instance_id: 1, dedupe_key: 1, id: 1 }, { unique: true });
// Rows looked up by id: the job's claims and results (of any tenant), a reprocess's walk in id
// order (of one). Not unique, and a pattern of its own: the unique `{id}` is dropped by name.
schema.index({ id: 1, tenant_id: 1 });
schema.index({ tenant_id: 1, integration_instance_id: 1, received_at: -1 });
// The job's claim: due rows oldest first, `id` breaking ties, in index order, so a claim reads
// `limit` rows however long the backlog (with `{state, lease_until}` alone it read and sorted every
// due row, and a job behind fell further behind).
schema.index({ state: 1, lease_until: 1, id: 1 });
// A reprocess job's progress: its rows that have their new result (sparse: most rows have none).
schema.index(
  { reprocess_job: 1, state: 1 },
  { partialFilterExpression: { reprocess_job: { $type: 'string' } } },
);

/** Indexes the schema no longer declares, dropped at start. */
export const RETIRED_WEBHOOK_EVENT_INDEXES = [
  'state_1_lease_until_1',
  // ADR 0237: a unique index of a sharded collection starts with its shard key.
  'id_1',
  'dedupe_key_1',
];

export type NewWebhookEvent = Pick<
  WebhookEventDocument,
  | 'tenant_id'
  | 'integration_instance_id'
  | 'provider'
  | 'received_at'
  | 'event_type'
  | 'tracking_number'
  | 'payload'
  | 'raw_body'
  | 'content_type'
  | 'signature'
  | 'signature_state'
>;

/**
 * A row as ingest first builds it: no result, no duplicate, never attempted, not leased. What
 * it becomes (to process, or finished at once) is set over it.
 */
export function newWebhookEventRow(event: NewWebhookEvent, id: number) {
  return {
    ...event,
    id,
    status_from: null,
    status_to: null,
    summary: null,
    update: null,
    duplicate_of: null,
    result: null,
    error_message: null,
    processing_duration_ms: null,
    attempts: 0,
    lease_owner: null,
    lease_until: NO_LEASE,
    created_at: new Date(),
    updated_at: new Date(),
  };
}

/** How a row ends: the fields processing (or ingest, for refused rows) writes. */
export interface Outcome {
  result: WebhookResult;
  status_from: string | null;
  status_to: string | null;
  error_message: string | null;
}

export const summaryOf = (from: string | null, to: string | null) =>
  from !== null && to !== null ? `${from} → ${to}` : null;

/**
 * The one model of the `webhook_events` collection on a connection, kept private by
 * `WebhookEventRepository` (a test may build a second repository on the service's connection).
 */
export function webhookEventModel(connection: Connection): Model<WebhookEventDocument> {
  return (
    (connection.models.WebhookEvent as Model<WebhookEventDocument> | undefined) ??
    connection.model<WebhookEventDocument>('WebhookEvent', schema)
  );
}
