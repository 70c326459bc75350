import type { Connection, mongo } from 'mongoose';
import {
  isDuplicateKeyError,
  LeasedQueue,
  TenantScopedRepository,
  type Retention,
} from '@inventory/platform';
import {
  deliveryModel,
  pendingDelivery,
  RETIRED_DELIVERY_INDEXES,
  type DeliveryDocument,
  type DeliveryFilter,
  type NewDelivery,
  type Settle,
} from './delivery.js';
import {
  countBy,
  dueClaim,
  duplicateOnlyFailures,
  healthCounts,
  healthFacets,
  healthMatch,
  healthWindow,
  HELD_ORDER,
  inListChunks,
  LIST_ORDER,
  listFilter,
  newCycle,
  p95Latency,
  releasedHeld,
  settled,
  type HealthFacets,
  type HealthWindowRow,
} from './delivery-queries.js';

/** A due delivery as the worker's claim names it: its tenant and its id. */
export type DueDelivery = Pick<DeliveryDocument, 'tenant_id' | 'delivery_id'>;

/**
 * The delivery log and schedule (`deliveries`): every query on the collection, its health
 * figures included. A tenant's reads and writes name the tenant; the worker's work
 * over due deliveries of every tenant (find, claim, release) says so in its names. Fan-out and
 * settles write many tenants' deliveries in one round trip, each document or filter carrying its
 * own tenant (ADR 0406).
 */
export class DeliveryRepository extends TenantScopedRepository<DeliveryDocument> {
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
  /** Drops the retired indexes still present; answers the names dropped. */
  dropRetiredIndexes(): Promise<string[]> {
    return this.dropIndexes(RETIRED_DELIVERY_INDEXES);
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
   * Which of these deliveries (of any tenants: one consumed batch's) already have a row, by dedupe
   * key: a redelivered event's recorded deliveries are not sent again. Each tenant's keys are
   * looked up under their tenant, so no read goes to every shard (ADR 0237).
   */
  async recordedKeys(
    deliveries: Array<Pick<DeliveryDocument, 'tenant_id' | 'dedupe_key'>>,
  ): Promise<Set<string>> {
    const byTenant = new Map<string, string[]>();
    for (const { tenant_id, dedupe_key } of deliveries) {
      const keys = byTenant.get(tenant_id);
      if (keys) keys.push(dedupe_key);
      else byTenant.set(tenant_id, [dedupe_key]);
    }
    const found = await Promise.all(
      [...byTenant].flatMap(([tenantId, tenantKeys]) =>
        inListChunks(tenantKeys).map((keys) =>
          // Fan-out's read of every batch: through the driver, scoped to the tenant, with
          // nothing for mongoose to cast (ADR 0745).
          this.driverCollection()
            .find(this.scope(tenantId, { dedupe_key: { $in: keys } }) as object, {
              projection: { dedupe_key: 1, _id: 0 },
            })
            .toArray(),
        ),
      ),
    );
    return new Set(found.flat().map((row) => row.dedupe_key));
  }

  /**
   * Pending deliveries of every tenant due by `now` and not held by a live lease, oldest first:
   * each its id and tenant, so that the claim names the tenant.
   */
  async dueIdsAcrossTenants(now: Date, limit: number): Promise<DueDelivery[]> {
    const due = await this.queue.dueKeysByTenant(dueClaim(now, limit));
    return due.map(({ tenantId, key }) => ({ tenant_id: tenantId, delivery_id: key as string }));
  }

  /**
   * Takes the leases of the given due deliveries (of any tenant, from `dueIdsAcrossTenants`) for
   * `owner`, marked with a fresh token, each tenant's under its tenant (ADR 0237), and returns the
   * ones this call won (another replica may have taken some first).
   */
  async claimAcrossTenants(
    due: DueDelivery[],
    now: Date,
    leaseMs: number,
    owner: string,
  ): Promise<DeliveryDocument[]> {
    return this.queue.leaseByTenant(
      due.map((delivery) => ({ tenantId: delivery.tenant_id, key: delivery.delivery_id })),
      dueClaim(now, due.length, owner, leaseMs),
    );
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
          update: settled(changes, attempt, updatedAt),
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
    return this.findOneAndUpdate(
      tenantId,
      { delivery_id: deliveryId },
      { $set: newCycle(new Date(), false) },
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
    return this.page(tenantId, listFilter(subscriptionId, filter), {
      projection: { body: 0 },
      sort: LIST_ORDER,
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
    return this.findOneAndUpdate(
      tenantId,
      { subscription_id: subscriptionId, status: 'held' },
      { $set: releasedHeld(owner, leaseMs, new Date()) },
      { sort: HELD_ORDER },
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
    const { modified } = await this.updateMany(
      tenantId,
      { delivery_id: { $in: deliveryIds }, status: 'failed' },
      { $set: newCycle(new Date(), true) },
    );
    return modified;
  }

  /** How the given deliveries stand, by status. */
  async statusCounts(tenantId: string, deliveryIds: string[]): Promise<Map<string, number>> {
    if (deliveryIds.length === 0) return new Map();
    const rows = await this.aggregate<{ _id: string; n: number }>(
      tenantId,
      { delivery_id: { $in: deliveryIds } },
      countBy('$status'),
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
      countBy('$subscription_id'),
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
   * One window's health from the subscription's attempt log (ADR 0417): one `$facet` gives the
   * counts and the last failure; a second pass takes the nearest-rank p95, only when some
   * attempt got a response.
   */
  async health(tenantId: string, subscriptionId: number, since: Date): Promise<HealthWindowRow> {
    const match = healthMatch(subscriptionId, since);
    const [facets] = await this.aggregate<HealthFacets>(tenantId, match, healthFacets(since));
    const { responded } = healthCounts(facets);
    if (responded === 0) return healthWindow(facets, null);
    const [row] = await this.aggregate<{ duration_ms: number }>(
      tenantId,
      match,
      p95Latency(since, responded),
    );
    return healthWindow(facets, row?.duration_ms ?? null);
  }
}
