import { randomUUID } from 'node:crypto';
import type { Connection, mongo } from 'mongoose';
import {
  isDuplicateKeyError,
  LeasedQueue,
  TenantScopedRepository,
  type ClaimRequest,
  type Retention,
} from '@inventory/platform';
import {
  deliveryModel,
  EPOCH,
  pendingDelivery,
  type DeliveryDocument,
  type DeliveryFilter,
  type NewDelivery,
  type Settle,
} from './delivery.js';
import { healthWindow, type HealthWindowRow } from './subscription-health.js';

/**
 * Most keys in one `$in` on the dedupe index: simply a batch size. A `$in` of any length is
 * served from the index by MongoDB and, since ADR 0611, by the embedded server too (which
 * scanned the whole collection past 64 points before).
 */
const IN_LIST_CHUNK = 64;

/** The indexes that failed in an unordered insert when every failure is a duplicate key. */
function duplicateOnlyFailures(error: unknown): Set<number> | undefined {
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  const list = (
    Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []
  ) as Array<{ index?: unknown; code?: unknown; err?: { index?: unknown } }>;
  if (list.length === 0 || !list.every((entry) => isDuplicateKeyError(entry))) return undefined;
  const indexes = list.map((entry) => entry.index ?? entry.err?.index);
  if (!indexes.every((index) => typeof index === 'number')) return undefined;
  return new Set(indexes as number[]);
}

/**
 * The delivery log and schedule. A tenant's reads and writes name the tenant; the worker's work
 * over due deliveries of every tenant (find, claim, release) says so in its names. Fan-out and
 * settles write many tenants' deliveries in one round trip, each document or filter carrying its
 * own tenant (ADR 0406).
 */
export class DeliveryStore extends TenantScopedRepository<DeliveryDocument> {
  /**
   * The worker's queue (ADR 0018): pending deliveries due by their next attempt, oldest first, of
   * every tenant; a claim is not an attempt (the settle counts the attempt it records).
   */
  private readonly queue: LeasedQueue<DeliveryDocument>;

  constructor(connection: Connection) {
    super(deliveryModel(connection));
    this.queue = new LeasedQueue(this.acrossTenants(), {
      key: 'delivery_id',
      held: { status: 'pending' },
    });
  }
  /** Deliveries created more than `days` ago are deleted with their attempts (`DELIVERY_RETENTION_DAYS`). */
  retention(days: number): Retention {
    return this.retentionOf('created_at', days);
  }

  /** Schedules a first attempt now; false when the same dedupe key was already scheduled. */
  async insertIfNew(input: NewDelivery, now = new Date()): Promise<boolean> {
    try {
      await this.insertOne(pendingDelivery(input, now));
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /**
   * Schedules many deliveries, due now, in one unordered write; the ones whose dedupe key is
   * already stored are skipped. Returns the documents actually stored.
   */
  async insertNew(inputs: NewDelivery[], now = new Date()): Promise<DeliveryDocument[]> {
    return this.insertRecorded(inputs.map((input) => pendingDelivery(input, now)));
  }

  /**
   * Stores whole delivery documents (first attempts with their outcome, ADR 0408) in one
   * unordered write; the ones whose dedupe key is already stored (the same event handled by
   * another replica) are skipped. Returns the documents actually stored.
   */
  async insertRecorded(documents: DeliveryDocument[]): Promise<DeliveryDocument[]> {
    if (documents.length === 0) return [];
    try {
      // The driver adds an _id to each document; the caller's copies need none.
      await this.driverCollection().insertMany(
        documents.map((document) => ({ ...document })),
        { ordered: false },
      );
      return documents;
    } catch (error) {
      const failed = duplicateOnlyFailures(error);
      if (failed === undefined) throw error;
      return documents.filter((_, index) => !failed.has(index));
    }
  }

  /**
   * Which of these dedupe keys (`<event id>:<subscription id>`, of any tenant: event ids are
   * unique) already have a row: a redelivered event's recorded deliveries are not sent again.
   */
  async recordedKeysAcrossTenants(dedupeKeys: string[]): Promise<Set<string>> {
    const chunks: string[][] = [];
    for (let at = 0; at < dedupeKeys.length; at += IN_LIST_CHUNK)
      chunks.push(dedupeKeys.slice(at, at + IN_LIST_CHUNK));
    const found = await Promise.all(
      chunks.map((keys) =>
        this.acrossTenants()
          .find({ dedupe_key: { $in: keys } }, { dedupe_key: 1, _id: 0 })
          .lean<Array<{ dedupe_key: string }>>(),
      ),
    );
    return new Set(found.flat().map((row) => row.dedupe_key));
  }

  /** A claim of the schedule's due deliveries, of every tenant. */
  private dueClaim(
    now: Date,
    limit: number,
    owner = '',
    leaseMs = 0,
  ): ClaimRequest<DeliveryDocument> {
    return {
      scope: 'acrossTenants',
      due: { status: 'pending', next_attempt_at: { $lte: now } },
      order: { next_attempt_at: 1 },
      owner,
      leaseMs,
      limit,
      now,
    };
  }

  /** Ids of pending deliveries of every tenant due by `now` and not held by a live lease, oldest first. */
  async dueIdsAcrossTenants(now: Date, limit: number): Promise<string[]> {
    return (await this.queue.dueKeys(this.dueClaim(now, limit))) as string[];
  }

  /**
   * Takes the leases of the given due deliveries (of any tenant, from `dueIdsAcrossTenants`) for
   * `owner` in one write, marked with a fresh token, and returns the ones this call won (another
   * replica may have taken some first).
   */
  async claimAcrossTenants(
    deliveryIds: string[],
    now: Date,
    leaseMs: number,
    owner: string,
  ): Promise<DeliveryDocument[]> {
    return this.queue.lease(deliveryIds, this.dueClaim(now, deliveryIds.length, owner, leaseMs));
  }

  /**
   * Settles claimed deliveries in one unordered bulk write, each scoped to its delivery's tenant:
   * appends the attempt (if one was made) and sets the new state, freeing the lease. Unlike a
   * queue's finish, a settle is not keyed by the lease (ADR 0018): it records an attempt already
   * made, which the log keeps even when the lease ran out meanwhile.
   */
  async settleMany(settles: Settle[]): Promise<void> {
    if (settles.length === 0) return;
    const updatedAt = new Date();
    await this.driverCollection().bulkWrite(
      settles.map(({ delivery, changes, attempt }) => ({
        updateOne: {
          filter: this.scope(delivery.tenant_id, {
            delivery_id: delivery.delivery_id,
          }) as mongo.Filter<DeliveryDocument>,
          update: {
            $set: { ...changes, lease_owner: null, lease_until: EPOCH, updated_at: updatedAt },
            ...(attempt ? { $push: { attempts: attempt } } : {}),
          },
        },
      })),
      { ordered: false },
    );
  }

  /**
   * Gives back the leases of claimed deliveries (of any tenant) never attempted, each only if
   * still held by the claim that took it.
   */
  async releaseLeasesAcrossTenants(
    held: Array<
      Pick<DeliveryDocument, 'delivery_id' | 'tenant_id' | 'lease_owner' | 'lease_token'>
    >,
  ): Promise<void> {
    await this.queue.releaseMany(
      held.map((delivery) => ({
        tenantId: delivery.tenant_id,
        key: delivery.delivery_id,
        holder: { owner: delivery.lease_owner ?? '', token: delivery.lease_token },
      })),
    );
  }

  find(
    tenantId: string,
    subscriptionId: number,
    deliveryId: string,
  ): Promise<DeliveryDocument | null> {
    return this.findOne(tenantId, { subscription_id: subscriptionId, delivery_id: deliveryId });
  }

  /** A new cycle of attempts (redeliver), due now; it passes the cap again. */
  restartCycle(tenantId: string, deliveryId: string): Promise<DeliveryDocument | null> {
    const now = new Date();
    return this.findOneAndUpdate(
      tenantId,
      { delivery_id: deliveryId },
      {
        $set: {
          status: 'pending',
          cycle_attempts: 0,
          admitted: false,
          next_attempt_at: now,
          lease_until: EPOCH,
          updated_at: now,
        },
      },
    );
  }

  /** One page of a subscription's deliveries, newest first, without their bodies. */
  async listPage(
    tenantId: string,
    subscriptionId: number,
    filter: DeliveryFilter,
    page: number,
    perPage: number,
  ): Promise<{ rows: DeliveryDocument[]; total: number }> {
    const scoped = {
      subscription_id: subscriptionId,
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.event ? { event: filter.event } : {}),
    };
    return this.page(tenantId, scoped, {
      projection: { body: 0 },
      sort: { created_at: -1, delivery_id: 1 },
      page,
      perPage,
    });
  }

  /**
   * The subscription's oldest held delivery (by when its event occurred), turned pending and
   * leased to `owner` in the same write, so it is sent once whoever resumes; null when none is
   * left. A crash after this leaves an ordinary pending delivery whose lease expires: the worker
   * sends it.
   */
  takeOldestHeld(
    tenantId: string,
    subscriptionId: number,
    owner: string,
    leaseMs: number,
  ): Promise<DeliveryDocument | null> {
    const now = new Date();
    return this.findOneAndUpdate(
      tenantId,
      { subscription_id: subscriptionId, status: 'held' },
      {
        $set: {
          status: 'pending',
          next_attempt_at: now,
          lease_owner: owner,
          lease_until: new Date(now.getTime() + leaseMs),
          lease_token: randomUUID(),
          updated_at: now,
        },
      },
      { sort: { occurred_at: 1, created_at: 1, delivery_id: 1 } },
    );
  }

  /**
   * The subscription's latest failed deliveries, newest first (their attempts only): what a
   * deactivation notice shows.
   */
  recentFailures(
    tenantId: string,
    subscriptionId: number,
    limit: number,
  ): Promise<Array<Pick<DeliveryDocument, 'delivery_id' | 'event' | 'attempts'>>> {
    return this.findMany(
      tenantId,
      { subscription_id: subscriptionId, status: 'failed' },
      {
        projection: { delivery_id: 1, event: 1, attempts: 1, _id: 0 },
        sort: { updated_at: -1 },
        limit,
      },
    );
  }

  /** Ids of the subscription's failed deliveries created since `since`, oldest first. */
  async failedIdsSince(
    tenantId: string,
    subscriptionId: number,
    since: Date,
    limit: number,
  ): Promise<string[]> {
    const rows = await this.findMany(
      tenantId,
      { subscription_id: subscriptionId, status: 'failed', created_at: { $gte: since } },
      { projection: { delivery_id: 1, _id: 0 }, sort: { created_at: 1, delivery_id: 1 }, limit },
    );
    return rows.map((row) => row.delivery_id);
  }

  /**
   * A recover's send (ADR 0415): a new cycle for a delivery that is still failed, due now and
   * already admitted (the recover took its cap slot). A delivery no longer failed (a recover
   * step repeated after a restart, a redelivery meanwhile) is left alone: nothing is sent twice.
   */
  async restartFailed(tenantId: string, deliveryIds: string[]): Promise<number> {
    if (deliveryIds.length === 0) return 0;
    const now = new Date();
    const { modified } = await this.updateMany(
      tenantId,
      { delivery_id: { $in: deliveryIds }, status: 'failed' },
      {
        $set: {
          status: 'pending',
          cycle_attempts: 0,
          admitted: true,
          next_attempt_at: now,
          lease_until: EPOCH,
          updated_at: now,
        },
      },
    );
    return modified;
  }

  /** How the given deliveries stand, by status. */
  async statusCounts(tenantId: string, deliveryIds: string[]): Promise<Map<string, number>> {
    if (deliveryIds.length === 0) return new Map();
    const rows = await this.aggregate<{ _id: string; n: number }>(
      tenantId,
      { delivery_id: { $in: deliveryIds } },
      [{ $group: { _id: '$status', n: { $sum: 1 } } }],
    );
    return new Map(rows.map((row) => [row._id, row.n]));
  }

  hasHeld(tenantId: string, subscriptionId: number): Promise<boolean> {
    return this.exists(tenantId, { subscription_id: subscriptionId, status: 'held' });
  }

  /** How many deliveries each of these subscriptions holds (absent: none). */
  async heldCounts(tenantId: string, subscriptionIds: number[]): Promise<Map<number, number>> {
    if (subscriptionIds.length === 0) return new Map();
    const rows = await this.aggregate<{ _id: number; n: number }>(
      tenantId,
      { subscription_id: { $in: subscriptionIds }, status: 'held' },
      [{ $group: { _id: '$subscription_id', n: { $sum: 1 } } }],
    );
    return new Map(rows.map((row) => [row._id, row.n]));
  }

  /** Deliveries of a deleted subscription are kept as history but never attempted again. */
  async skipPending(tenantId: string, subscriptionId: number): Promise<void> {
    await this.updateMany(
      tenantId,
      { subscription_id: subscriptionId, status: { $in: ['pending', 'held'] } },
      { $set: { status: 'skipped', updated_at: new Date() } },
    );
  }

  /**
   * One window's health from the subscription's attempt log (ADR 0417). The match is served by
   * the `{ tenant_id, subscription_id, created_at: -1 }` index (its prefix): only this
   * subscription's deliveries are read, and retention bounds them. `created_at` cannot narrow it
   * further, since a redelivery attempts an old delivery again inside the window.
   */
  health(tenantId: string, subscriptionId: number, since: Date): Promise<HealthWindowRow> {
    const base = { subscription_id: subscriptionId, 'attempts.attempted_at': { $gte: since } };
    return healthWindow(since, (pipeline) => this.aggregate(tenantId, base, pipeline));
  }
}
