import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import {
  GroupCommitQueue,
  isDuplicateKeyError,
  LeasedQueue,
  TenantScopedRepository,
  type Retention,
} from '@inventory/platform';
import type { TrackingUpdate } from '../domain/payload.js';
import { IdBlock } from './id-block.js';
import {
  RETIRED_WEBHOOK_EVENT_INDEXES,
  newWebhookEventRow,
  summaryOf,
  webhookEventModel,
  type NewWebhookEvent,
  type Outcome,
  type WebhookEventDocument,
} from './webhook-event.js';
import {
  CLAIM_ORDER,
  logFilter,
  logSort,
  resultFields,
  signsOfLife,
  TO_PROCESS,
  unacknowledgedFields,
  type ListQuery,
} from './webhook-event-queries.js';

/** A row the job holds: its lease's token keys its release and its result. */
export type LeasedRow = Pick<WebhookEventDocument, 'id' | 'tenant_id' | 'lease_token'>;

/** A leased row's result, as the processing job writes it. */
export interface RowResult {
  owner: string;
  row: LeasedRow;
  outcome: Outcome;
  durationMs: number;
}

/**
 * The webhook log (`webhook_events`): rows stored at ingest, then claimed, released and finished
 * by the processing job under a lease (ADR 0220, 0221, 0224), and read by the log endpoint and
 * the dashboard's summary. Every tenant-owned query names its tenant; the job's claims, which
 * take due rows of every tenant, say so in their names.
 */
export class WebhookEventRepository extends TenantScopedRepository<WebhookEventDocument> {
  private readonly ids: IdBlock;
  /**
   * The processing job's queue (ADR 0018): rows to process, oldest first, of every tenant; each
   * claim counts an attempt.
   */
  private readonly queue: LeasedQueue<WebhookEventDocument>;
  /**
   * Rows stored while one insert is in flight go together in the next (ADR 0228): one unordered
   * `insertMany`, each row answered on its own (its write error, such as a duplicate
   * `dedupe_key`, is its own); each caller still waits for its own row to be written. The rows of
   * one batch call go in one insert (ADR 0746).
   */
  private readonly inserts = new GroupCommitQueue<WebhookEventDocument, Error | undefined>(
    (rows) => this.insertBatch(rows),
    128,
    { gatherTurn: true },
  );

  constructor(connection: Connection) {
    super(webhookEventModel(connection));
    this.ids = new IdBlock(connection, 'webhook_events');
    this.queue = new LeasedQueue(this.acrossTenants(), {
      key: 'id',
      countsAttempt: 'attempts',
      held: TO_PROCESS,
    });
  }
  /** Rows received more than `days` ago are deleted (`WEBHOOK_EVENT_RETENTION_DAYS`). */
  retention(days: number): Retention {
    return this.retentionOf('received_at', days);
  }

  /** Drops the retired indexes still present (`dropIndexes`); answers the names dropped. */
  dropRetiredIndexes(): Promise<string[]> {
    return this.dropIndexes(RETIRED_WEBHOOK_EVENT_INDEXES);
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
    // The queue rejects a row whose answer is an Error: its own write error.
    await this.inserts.add({
      ...row,
      // The schema's defaults, which mongoose applied.
      event_type: row.event_type ?? '',
      tracking_number: row.tracking_number ?? '',
      raw_body: row.raw_body ?? '',
      content_type: row.content_type ?? '',
    });
  }

  /** One unordered insert; each row's answer is undefined (written) or its own write error. */
  private async insertBatch(rows: WebhookEventDocument[]): Promise<Array<Error | undefined>> {
    try {
      await this.driverCollection().insertMany(rows, { ordered: false });
      return rows.map(() => undefined);
    } catch (error) {
      const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
      // Not a per-row failure (the connection, the server): the whole batch failed.
      if (!Array.isArray(writeErrors) || writeErrors.length === 0) throw error;
      const byIndex = new Map<number, Error>();
      for (const failed of writeErrors as Array<{ index: number; code?: number; errmsg?: string }>)
        byIndex.set(
          failed.index,
          Object.assign(new Error(failed.errmsg ?? 'write error'), { code: failed.code }),
        );
      return rows.map((_, index) => byIndex.get(index));
    }
  }

  /**
   * Stores a webhook to process. A provider retry of one already stored (same
   * identity for the instance) is stored as its own row, `ignored` as a
   * duplicate, in the same call: the unique dedupe key decides, so two
   * replicas racing on one retry cannot both store it for processing.
   */
  async storeForProcessing(
    event: NewWebhookEvent,
    update: TrackingUpdate,
    identity: string,
    /** Stores the row already claimed by this worker (ADR 0224): it needs no claim round trip. */
    lease?: { owner: string; ms: number },
  ): Promise<{
    id: number;
    /** The row's dedupe key when it was stored as the original (`duplicateOf` null). */
    dedupeKey: string;
    duplicateOf: number | null;
    leased?: WebhookEventDocument;
  }> {
    const row = newWebhookEventRow(event, await this.newId());
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
            lease_token: randomUUID(),
            attempts: 1,
          }
        : {}),
    };
    try {
      await this.insert(stored);
      return {
        id: row.id,
        dedupeKey: key,
        duplicateOf: null,
        ...(lease ? { leased: stored } : {}),
      };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    // The whole unique key (ADR 0237): the tenant, the instance and the dedupe key.
    const original = await this.findOne(
      event.tenant_id,
      { integration_instance_id: event.integration_instance_id, dedupe_key: key },
      { id: 1 },
    );
    const duplicateOf = original?.id ?? null;
    await this.insert({
      ...row,
      // Kept, so the row can be reprocessed (ADR 0230).
      update,
      dedupe_key: `row:${row.id}`,
      duplicate_of: duplicateOf,
      state: 'done',
      result: 'ignored',
      error_message: `Duplicate of webhook event ${duplicateOf} (a provider retry); not applied again.`,
      processing_duration_ms: Date.now() - event.received_at.getTime(),
    });
    return { id: row.id, dedupeKey: `row:${row.id}`, duplicateOf };
  }

  /**
   * A row that landed after its push had been answered 503 (ADR 0743): kept, shown as ignored,
   * never processed, and its dedupe key given up, so the provider's retry is the one processed.
   * Only while no other replica's job has claimed it (the lease this insert took, owner and
   * token, or none): then the retry is the duplicate.
   *
   * Giving up the dedupe key changes the row's shard key, which a sharded cluster allows only
   * to a write whose filter names the whole current key (deploy/SCALING.md).
   */
  async markUnacknowledged(
    row: Pick<WebhookEventDocument, 'tenant_id' | 'integration_instance_id' | 'dedupe_key' | 'id'>,
    heldLease?: { owner: string; token: string },
  ): Promise<void> {
    const holder = heldLease
      ? { lease_owner: heldLease.owner, lease_token: heldLease.token }
      : { lease_owner: null };
    await this.updateOne(
      row.tenant_id,
      {
        integration_instance_id: row.integration_instance_id,
        dedupe_key: row.dedupe_key,
        id: row.id,
        state: 'received',
        ...holder,
      },
      { $set: unacknowledgedFields(row.id) },
    );
  }

  /** Stores a webhook that ends at ingest (refused): one row, already with its result. */
  async storeFinished(id: number, event: NewWebhookEvent, outcome: Outcome): Promise<number> {
    const row = newWebhookEventRow(event, id);
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
   * Claims up to `limit` of the oldest rows due for processing, of every tenant (the job's work
   * is not one tenant's), in three round trips whatever the limit (ADR 0224): their ids, the
   * lease on those still due, and the rows this claim won (another replica may have taken some
   * first), each marked with a fresh token. The lease keeps other replicas off a row until it
   * expires, which is also how a crashed worker's row comes back.
   */
  async claimDueAcrossTenants(
    owner: string,
    leaseMs: number,
    limit: number,
    now = new Date(),
  ): Promise<WebhookEventDocument[]> {
    return this.queue.claim({
      scope: 'acrossTenants',
      due: TO_PROCESS,
      order: CLAIM_ORDER,
      owner,
      leaseMs,
      limit,
      now,
    });
  }

  /**
   * Rows waiting for their result (due, leased or waiting for a retry), counted up to `upTo`:
   * the backlog bound needs to know whether it is reached, and a count that stops there costs
   * at most `upTo` index keys however long the backlog grows.
   */
  async waitingCountAcrossTenants(upTo: number): Promise<number> {
    return this.acrossTenants().countDocuments({ state: 'received' }, { limit: upTo });
  }

  /**
   * Writes the results of many leased rows in one bulk write, each scoped to its row's tenant and
   * only while `owner` still holds it, marked with `token`; returns how many were written (fewer
   * when some lease was lost).
   */
  async finishMany(results: RowResult[], token: string): Promise<number> {
    const updatedAt = new Date();
    return this.queue.finishMany(
      results.map(({ owner, row, outcome, durationMs }) => ({
        tenantId: row.tenant_id,
        key: row.id,
        holder: { owner, token: row.lease_token },
        set: resultFields(outcome, durationMs, token, updatedAt),
      })),
    );
  }

  /**
   * The ids among `ids` (rows of any tenant, one batch's) whose result the batch marked `token`
   * wrote: the token is the batch's own, so it selects no other batch's rows.
   */
  async finishedAcrossTenants(ids: number[], token: string): Promise<Set<number>> {
    const rows = await this.acrossTenants()
      .find({ id: { $in: ids }, finish_token: token }, { id: 1 })
      .lean<Array<{ id: number }>>();
    return new Set(rows.map((row) => row.id));
  }

  /** Gives a row back for a later attempt after a failure that may pass. */
  async release(row: LeasedRow, owner: string, retryAt: Date, error: string): Promise<void> {
    await this.queue.release(
      row.tenant_id,
      [row.id],
      { owner, token: row.lease_token },
      { error_message: error, updated_at: new Date() },
      retryAt,
    );
  }

  /** One page of the instances' finished rows (the log endpoint). */
  async list(
    tenantId: string,
    instanceIds: number[],
    query: ListQuery,
  ): Promise<{ rows: WebhookEventDocument[]; total: number }> {
    return this.page(tenantId, logFilter(instanceIds, query), {
      sort: logSort(query),
      page: query.page,
      perPage: query.perPage,
    });
  }

  /** When the instance last received a webhook: the newest row, read from the index's end. */
  async summary(tenantId: string, instanceId: number): Promise<{ last_webhook_at: Date | null }> {
    const [last] = await this.findMany(tenantId, signsOfLife(instanceId), {
      sort: { received_at: -1 },
      limit: 1,
      projection: { received_at: 1 },
    });
    return { last_webhook_at: last?.received_at ?? null };
  }
}
