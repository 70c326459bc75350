import { randomUUID } from 'node:crypto';
import { Schema, type Connection, type Model, type mongo } from 'mongoose';
import { isDuplicateKeyError, tenantFilter } from '@inventory/platform';
import { IdBlock } from './id-block.js';
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
  /** Unique: the payload identity for rows to process, `row:<id>` for every other row. */
  dedupe_key: string;
  duplicate_of: number | null;
  state: 'received' | 'done';
  result: WebhookResult | null;
  error_message: string | null;
  processing_duration_ms: number | null;
  attempts: number;
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
    lease_owner: { type: String, default: null },
    lease_until: { type: Date, required: true },
    lease_token: { type: String },
    finish_token: { type: String },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'webhook_events', minimize: false },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ dedupe_key: 1 }, { unique: true });
schema.index({ tenant_id: 1, integration_instance_id: 1, received_at: -1 });
schema.index({ state: 1, lease_until: 1 });

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

/** How a row ends: the fields processing (or ingest, for refused rows) writes. */
export interface Outcome {
  result: WebhookResult;
  status_from: string | null;
  status_to: string | null;
  error_message: string | null;
}

export const summaryOf = (from: string | null, to: string | null) =>
  from !== null && to !== null ? `${from} → ${to}` : null;

export class InboxStore {
  readonly model: Model<WebhookEventDocument>;
  private readonly ids: IdBlock;

  constructor(connection: Connection) {
    this.model = connection.model<WebhookEventDocument>('WebhookEvent', schema);
    this.ids = new IdBlock(connection, 'webhook_events');
  }

  /** Ids come first, so activity entries written with a row can name it. */
  newId(): Promise<number> {
    return this.ids.take();
  }

  /**
   * Inserts a whole row through the driver: every field is set here, so mongoose's casting,
   * validation and save hooks would only cost CPU (they showed in the profile).
   */
  private async insert(row: WebhookEventDocument): Promise<void> {
    await (this.model.collection as unknown as mongo.Collection<WebhookEventDocument>).insertOne({
      ...row,
      // The schema's defaults, which mongoose applied.
      event_type: row.event_type ?? '',
      tracking_number: row.tracking_number ?? '',
      raw_body: row.raw_body ?? '',
      content_type: row.content_type ?? '',
    });
  }

  private base(event: NewWebhookEvent, id: number) {
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
      lease_until: new Date(0),
      created_at: new Date(),
      updated_at: new Date(),
    };
  }

  /**
   * Stores a webhook to process. A provider retry of one already stored (same
   * identity for the instance) is stored as its own row, `ignored` as a
   * duplicate, in the same call: the unique `dedupe_key` decides, so two
   * replicas racing on one retry cannot both store it for processing.
   */
  async storeForProcessing(
    event: NewWebhookEvent,
    update: TrackingUpdate,
    identity: string,
    /** Stores the row already claimed by this worker (ADR 0224): it needs no claim round trip. */
    lease?: { owner: string; ms: number },
  ): Promise<{ id: number; duplicateOf: number | null; leased?: WebhookEventDocument }> {
    const row = this.base(event, await this.newId());
    const key = `${event.tenant_id}:${event.integration_instance_id}:${identity}`;
    const stored: WebhookEventDocument = {
      ...row,
      update,
      dedupe_key: key,
      state: 'received',
      // As a claim would set them: the lease, and the claim counted as an attempt.
      ...(lease
        ? {
            lease_owner: lease.owner,
            lease_until: new Date(Date.now() + lease.ms),
            attempts: 1,
          }
        : {}),
    };
    try {
      await this.insert(stored);
      return { id: row.id, duplicateOf: null, ...(lease ? { leased: stored } : {}) };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const original = await this.model
      .findOne(tenantFilter<WebhookEventDocument>(event.tenant_id, { dedupe_key: key }), { id: 1 })
      .lean<{ id: number }>();
    const duplicateOf = original?.id ?? null;
    await this.insert({
      ...row,
      dedupe_key: `row:${row.id}`,
      duplicate_of: duplicateOf,
      state: 'done',
      result: 'ignored',
      error_message: `Duplicate of webhook event ${duplicateOf} (a provider retry); not applied again.`,
      processing_duration_ms: Date.now() - event.received_at.getTime(),
    });
    return { id: row.id, duplicateOf };
  }

  /**
   * A webhook on record, finished as `ignored` without processing: what parcel-tracking's
   * dashboard tests use to have a `last_webhook_at` (the shape this store had before processing).
   */
  async store(
    event: Omit<NewWebhookEvent, 'received_at' | 'signature_state' | 'payload'> & {
      payload: Record<string, unknown> | null;
    },
  ): Promise<number> {
    return this.storeFinished(
      await this.newId(),
      {
        ...event,
        payload: event.payload as StoredPayload | null,
        received_at: new Date(),
        signature_state: event.signature ? 'valid' : 'absent',
      },
      { result: 'ignored', status_from: null, status_to: null, error_message: 'Not processed.' },
    );
  }

  /** Stores a webhook that ends at ingest (refused): one row, already with its result. */
  async storeFinished(id: number, event: NewWebhookEvent, outcome: Outcome): Promise<number> {
    const row = this.base(event, id);
    await this.insert({
      ...row,
      ...outcome,
      summary: summaryOf(outcome.status_from, outcome.status_to),
      dedupe_key: `row:${row.id}`,
      state: 'done',
      processing_duration_ms: Date.now() - event.received_at.getTime(),
    });
    return row.id;
  }

  /**
   * Claims the oldest row due for processing, across tenants (the job's one
   * tenant-independent query): the lease keeps other replicas off it until it
   * expires, which is also how a crashed worker's row comes back.
   */
  claimNext(
    owner: string,
    leaseMs: number,
    now = new Date(),
  ): Promise<WebhookEventDocument | null> {
    return this.model
      .findOneAndUpdate(
        { state: 'received', lease_until: { $lte: now } },
        {
          $set: { lease_owner: owner, lease_until: new Date(now.getTime() + leaseMs) },
          $inc: { attempts: 1 },
        },
        { sort: { lease_until: 1, id: 1 }, new: true },
      )
      .lean<WebhookEventDocument>();
  }

  /**
   * Claims up to `limit` of the oldest rows due for processing in three round trips whatever
   * the limit (ADR 0224): their ids, the lease on those still due, and the rows this claim won
   * (another replica may have taken some first), each marked with a fresh token.
   */
  async claimBatch(
    owner: string,
    leaseMs: number,
    limit: number,
    now = new Date(),
  ): Promise<WebhookEventDocument[]> {
    const due = { state: 'received', lease_until: { $lte: now } };
    const ids = (
      await this.model
        .find(due, { id: 1 })
        .sort({ lease_until: 1, id: 1 })
        .limit(limit)
        .lean<Array<{ id: number }>>()
    ).map((row) => row.id);
    if (ids.length === 0) return [];
    const token = randomUUID();
    await this.model.updateMany(
      { ...due, id: { $in: ids } },
      {
        $set: {
          lease_owner: owner,
          lease_until: new Date(now.getTime() + leaseMs),
          lease_token: token,
        },
        $inc: { attempts: 1 },
      },
    );
    return this.model
      .find({ id: { $in: ids }, lease_token: token })
      .sort({ id: 1 })
      .lean<WebhookEventDocument[]>();
  }

  /**
   * Writes the results of many leased rows in one bulk write, each as `finish` would, marked
   * with `token`; returns how many were written (fewer when some lease was lost).
   */
  async finishMany(
    results: Array<{
      owner: string;
      row: Pick<WebhookEventDocument, 'id' | 'tenant_id'>;
      outcome: Outcome;
      durationMs: number;
    }>,
    token: string,
  ): Promise<number> {
    if (results.length === 0) return 0;
    const updatedAt = new Date();
    const written = await this.model.collection.bulkWrite(
      results.map(({ owner, row, outcome, durationMs }) => ({
        updateOne: {
          filter: { tenant_id: row.tenant_id, id: row.id, state: 'received', lease_owner: owner },
          update: {
            $set: {
              ...outcome,
              summary: summaryOf(outcome.status_from, outcome.status_to),
              state: 'done',
              processing_duration_ms: durationMs,
              lease_owner: null,
              finish_token: token,
              updated_at: updatedAt,
            },
          },
        },
      })),
      { ordered: false },
    );
    return written.modifiedCount;
  }

  /** The ids among `ids` whose result the batch marked `token` wrote. */
  async finishedWith(ids: number[], token: string): Promise<Set<number>> {
    const rows = await this.model
      .find({ id: { $in: ids }, finish_token: token }, { id: 1 })
      .lean<Array<{ id: number }>>();
    return new Set(rows.map((row) => row.id));
  }

  /** Writes the one result; false when the lease was lost (another worker owns the row now). */
  async finish(
    row: Pick<WebhookEventDocument, 'id' | 'tenant_id'>,
    owner: string,
    outcome: Outcome,
    durationMs: number,
  ): Promise<boolean> {
    const result = await this.model.updateOne(
      tenantFilter<WebhookEventDocument>(row.tenant_id, {
        id: row.id,
        state: 'received',
        lease_owner: owner,
      }),
      {
        $set: {
          ...outcome,
          summary: summaryOf(outcome.status_from, outcome.status_to),
          state: 'done',
          processing_duration_ms: durationMs,
          lease_owner: null,
          updated_at: new Date(),
        },
      },
    );
    return result.modifiedCount === 1;
  }

  /** Gives a row back for a later attempt after a failure that may pass. */
  async release(
    row: Pick<WebhookEventDocument, 'id' | 'tenant_id'>,
    owner: string,
    retryAt: Date,
    error: string,
  ): Promise<void> {
    await this.model.updateOne(
      tenantFilter<WebhookEventDocument>(row.tenant_id, {
        id: row.id,
        state: 'received',
        lease_owner: owner,
      }),
      {
        $set: {
          lease_owner: null,
          lease_until: retryAt,
          error_message: error,
          updated_at: new Date(),
        },
      },
    );
  }

  /** Rows still waiting for a result (for tests, benches and metrics). */
  countPending(): Promise<number> {
    return this.model.countDocuments({ state: 'received' });
  }
}
