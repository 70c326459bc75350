import type { Connection } from 'mongoose';
import {
  isDuplicateKeyError,
  LeasedQueue,
  nextSequence,
  TenantScopedRepository,
} from '@inventory/platform';
import { zeroStatusCounts, type DeliveryStatus } from '../domain/delivery-status.js';
import {
  lateConditions,
  stalledConditions,
  type StalledThresholds,
} from '../domain/shipment-watch.js';
import type { DeliveredRow } from '../domain/transit.js';
import { registrationsPerDayOf, type RegistrationsPerDay } from '../domain/quota-forecast.js';
import {
  IS_SET,
  RETIRED_TRACKING_INDEXES,
  trackingModel,
  type NewTracking,
  type TrackingDocument,
} from './tracking.js';
import {
  applicableByNumber,
  DELIVERED_ROW_PROJECTION,
  dueQueries,
  listFilter,
  listSort,
  normalizeNumber,
  ofInstance,
  pendingRegistration,
  preferApplicable,
  PROVIDER_STOP_PROJECTION,
  providerStopOf,
  rankRegistrationErrors,
  REGISTRATION_ERROR_PIPELINE,
  registrationErrorsOf,
  STATUS_COUNT_PIPELINE,
  CARRIERS_SEEN_PIPELINE,
  countEachUtcDay,
  type CarrierSeenGroup,
  stillActive,
  trackedAtProvider,
  type ClaimOptions,
  type ProviderStop,
  type RegistrationError,
  type RegistrationErrorGroup,
  type TrackingListQuery,
  type WorkKind,
  type WatchAlert,
  WATCH_ALERT_PROJECTION,
} from './tracking-queries.js';

/**
 * Every query on the tracking rows: intake and status updates, the trackings list, the dashboard,
 * a disconnect, and the workers' queues. A queued row is leased by a write that requires it still
 * due and unleased, so two replicas never send the same row to the provider; a crashed worker's
 * lease runs out and the row becomes due again. Each queue's queries are bounded by an index to
 * its due rows (tracking.ts): a pass reads each row about once however many are queued (ADR
 * 0727), and a pass with nothing due reads nothing, however many rows the instance has (ADR 0730).
 */
export class TrackingRepository extends TenantScopedRepository<TrackingDocument> {
  /**
   * The platform's leased queue (ADR 0018), one tenant's rows per claim; a claim is not an attempt
   * (registration counts its own). Rows written before it keep an empty lease as null.
   */
  private readonly queue: LeasedQueue<TrackingDocument>;

  constructor(private readonly connection: Connection) {
    super(trackingModel(connection));
    // The model unscoped, for the queue, which scopes every claim and release to its tenant.
    this.queue = new LeasedQueue(this.acrossTenants(), { key: 'id', nullLeaseIsEmpty: true });
  }

  /** Drops the retired indexes still present (`dropIndexes`); answers the names dropped. */
  dropRetiredIndexes(): Promise<string[]> {
    return this.dropIndexes(RETIRED_TRACKING_INDEXES);
  }

  async insert(row: NewTracking): Promise<TrackingDocument> {
    return this.insertWithDefaults(await this.numbered(row, new Date()));
  }

  /** Inserts an active row; null when the number already has one (another replica, another record). */
  async insertActive(row: NewTracking, now: Date): Promise<TrackingDocument | null> {
    const document = await this.numbered({ ...row, active: true }, now);
    try {
      return await this.insertWithDefaults(document);
    } catch (error) {
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
  }

  /** The row with its id, from the rows' sequence, and its times. */
  private async numbered(row: NewTracking, now: Date) {
    const id = await nextSequence(this.connection, 'tracking_rows');
    // A row stored delivered counts in its day's kept transit sums (ADR 0239).
    const transit = row.delivered_at ? { transit_changed_at: now } : {};
    return { ...row, ...transit, id, created_at: row.created_at ?? now, updated_at: now };
  }

  byId(tenantId: string, id: number): Promise<TrackingDocument | null> {
    return this.findOne(tenantId, { id });
  }

  /** One row by id, among the rows of these instances (the current one and its history). */
  ofInstances(
    tenantId: string,
    instanceIds: number[],
    id: number,
  ): Promise<TrackingDocument | null> {
    return this.findOne(tenantId, { id, integration_instance_id: { $in: instanceIds } });
  }

  /** The instance's rows, in id order. */
  find(tenantId: string, instanceId: number): Promise<TrackingDocument[]> {
    return this.findMany(tenantId, ofInstance(instanceId), { sort: { id: 1 } });
  }

  /** The trackable's active rows of one instance (normally zero or one). */
  activeForTrackable(
    tenantId: string,
    instanceId: number,
    trackableType: string,
    trackableId: number,
  ): Promise<TrackingDocument[]> {
    return this.findMany(
      tenantId,
      ofInstance(instanceId, {
        trackable_type: trackableType,
        trackable_id: trackableId,
        active: true,
      }),
    );
  }

  /** The row a provider update for `number` applies to: the active one, else the latest. */
  async forNumber(
    tenantId: string,
    instanceId: number,
    number: string,
  ): Promise<TrackingDocument | null> {
    const rows = await this.findMany(
      tenantId,
      ofInstance(instanceId, { tracking_number: normalizeNumber(number) }),
    );
    return rows.reduce<TrackingDocument | null>(preferApplicable, null);
  }

  /**
   * `forNumber` for many numbers of one instance in one read: by normalised number, the row an
   * update applies to (the active one, else the latest); numbers with no row are absent.
   */
  async forNumbers(
    tenantId: string,
    instanceId: number,
    numbers: string[],
  ): Promise<Map<string, TrackingDocument>> {
    // Through the driver, scoped to the tenant: mongoose's query building showed in the profile.
    const found = (await this.driverCollection()
      .find(
        this.scope(
          tenantId,
          ofInstance(instanceId, {
            tracking_number: { $in: [...new Set(numbers.map(normalizeNumber))] },
          }),
        ) as object,
      )
      .toArray()) as TrackingDocument[];
    return applicableByNumber(found);
  }

  /**
   * Writes a status change only when the row is still at the revision it was
   * read at, so two writers never both apply (or both fire side effects).
   */
  async applyIfUnchanged(
    tenantId: string,
    id: number,
    revision: number,
    changes: Record<string, unknown>,
    now: Date,
  ): Promise<boolean> {
    const { modified } = await this.updateOne(
      tenantId,
      { id, revision },
      { $set: { ...changes, updated_at: now }, $inc: { revision: 1 } },
    );
    return modified === 1;
  }

  /** Stops rows locally (number changed or removed); the stop worker tells the provider. */
  async stop(tenantId: string, ids: number[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.updateMany(
      tenantId,
      { id: { $in: ids }, active: true },
      { $set: { active: false, stopped_at: at, updated_at: at } },
    );
  }

  /**
   * Marks every active row (not stopped, not in a terminal status) stopped and
   * returns those the provider is tracking, so they can be stopped there too.
   */
  async stopActive(tenantId: string, instanceId: number, at: Date): Promise<ProviderStop[]> {
    const registered = await this.findMany(tenantId, trackedAtProvider(instanceId), {
      projection: PROVIDER_STOP_PROJECTION,
    });
    await this.updateMany(tenantId, stillActive(instanceId), {
      $set: { stopped_at: at, active: false, updated_at: at },
    });
    return registered.map(providerStopOf);
  }

  async markProviderStopped(
    tenantId: string,
    instanceId: number,
    numbers: string[],
    at: Date,
  ): Promise<void> {
    await this.updateMany(
      tenantId,
      ofInstance(instanceId, { tracking_number: { $in: numbers }, provider_stopped_at: null }),
      { $set: { provider_stopped_at: at } },
    );
  }

  /** A page of the rows of these instances (an instance and its history, ADR 0215). */
  list(
    tenantId: string,
    instanceIds: number[],
    query: TrackingListQuery,
  ): Promise<{ rows: TrackingDocument[]; total: number }> {
    return this.page(tenantId, listFilter(instanceIds, query), {
      sort: listSort(query),
      page: query.page,
      perPage: query.perPage,
    });
  }

  async statusCounts(
    tenantId: string,
    instanceId: number,
  ): Promise<Record<DeliveryStatus, number>> {
    const counts = zeroStatusCounts();
    const groups = await this.aggregate<{ _id: DeliveryStatus; count: number }>(
      tenantId,
      ofInstance(instanceId),
      STATUS_COUNT_PIPELINE,
    );
    for (const group of groups) if (group._id in counts) counts[group._id] = group.count;
    return counts;
  }

  /**
   * Up to `limit` of the instance's rows stalled (or late) at `now` and not alerted about yet,
   * oldest first, for the watch sweep (ADR 0218).
   */
  watchAlertsDue(
    tenantId: string,
    instanceId: number,
    watch: WatchAlert,
    limit: number,
  ): Promise<TrackingDocument[]> {
    const conditions =
      watch.kind === 'stalled'
        ? stalledConditions(watch.now, watch.thresholds)
        : lateConditions(watch.now);
    return this.findMany(
      tenantId,
      ofInstance(instanceId, { [`${watch.kind}_alerted_at`]: null, ...conditions }),
      { sort: { id: 1 }, limit, projection: WATCH_ALERT_PROJECTION },
    );
  }

  /** Marks the row alerted; false when it already was (another replica's sweep won). */
  async markWatchAlerted(
    tenantId: string,
    id: number,
    kind: WatchAlert['kind'],
    at: Date,
  ): Promise<boolean> {
    const field = `${kind}_alerted_at` as const;
    const { modified } = await this.updateOne(
      tenantId,
      { id, [field]: null },
      { $set: { [field]: at } },
    );
    return modified === 1;
  }

  /** How many of the instance's rows are stalled and late at `now` (ADR 0218). */
  async watchCounts(
    tenantId: string,
    instanceId: number,
    now: Date,
    thresholds: StalledThresholds,
  ): Promise<{ stalled: number; late: number }> {
    const [stalled, late] = await Promise.all([
      this.count(tenantId, ofInstance(instanceId, stalledConditions(now, thresholds))),
      this.count(tenantId, ofInstance(instanceId, lateConditions(now))),
    ]);
    return { stalled, late };
  }

  /** Rows still waiting to be registered (`pendingRegistration`), retried rejections included. */
  pendingRegistrationCount(tenantId: string, instanceId: number): Promise<number> {
    return this.count(tenantId, pendingRegistration(instanceId));
  }

  /** The unregistered rows' errors by message, most frequent first, then the latest first. */
  async registrationErrors(tenantId: string, instanceId: number): Promise<RegistrationError[]> {
    const groups = await this.aggregate<RegistrationErrorGroup>(
      tenantId,
      registrationErrorsOf(instanceId),
      REGISTRATION_ERROR_PIPELINE,
    );
    return rankRegistrationErrors(groups);
  }

  /** Every carrier assigned to the instance's rows, by code, with its name when a row has one. */
  async carriersSeen(
    tenantId: string,
    instanceId: number,
  ): Promise<Array<{ carrier_code: number; carrier_name: string | null }>> {
    // The codes counted from the carriers' index entries, then one name per code from the same
    // index: no row is read (grouping the rows read each one, 1.3 s at 100,000 rows embedded).
    const groups = await this.aggregate<CarrierSeenGroup>(
      tenantId,
      ofInstance(instanceId, { carrier_code: { $gte: 0 } }),
      CARRIERS_SEEN_PIPELINE,
    );
    return Promise.all(
      groups.map(async (group) => {
        const [named] = await this.findMany(
          tenantId,
          ofInstance(instanceId, { carrier_code: group._id, carrier_name: { $gt: '' } }),
          { projection: { carrier_name: 1, _id: 0 }, limit: 1 },
        );
        return { carrier_code: group._id, carrier_name: named?.carrier_name ?? null };
      }),
    );
  }

  /**
   * How many of the instance's rows have `field` in each UTC day from `since`'s to today's: one
   * count of index entries per day, so no row is read (grouping the rows by day read each one:
   * 0.7 s for 43,000 registrations on the embedded server).
   */
  private countsPerDay(
    tenantId: string,
    instanceId: number,
    field: 'registered_at' | 'registration_reused_at',
    since: Date,
  ): Promise<Map<string, number>> {
    return countEachUtcDay(since, new Date(), ({ start, end }) =>
      this.count(tenantId, ofInstance(instanceId, { [field]: { $gte: start, $lt: end } })),
    );
  }

  /** The rows registered each UTC day since `since`, and how many re-used a registration (ADR 0235). */
  async registrationsPerDay(
    tenantId: string,
    instanceId: number,
    since: Date,
  ): Promise<RegistrationsPerDay> {
    const [registered, reused] = await Promise.all([
      this.countsPerDay(tenantId, instanceId, 'registered_at', since),
      this.countsPerDay(tenantId, instanceId, 'registration_reused_at', since),
    ]);
    return registrationsPerDayOf(registered, reused);
  }

  /**
   * The units spent since `since`: rows registered, less those that re-used a registration. Two
   * counts of index entries (no row is read), for the registration worker's forecast check.
   */
  async unitsSpentSince(tenantId: string, instanceId: number, since: Date): Promise<number> {
    const [registered, reused] = await Promise.all([
      this.count(tenantId, ofInstance(instanceId, { registered_at: { $gte: since } })),
      this.count(tenantId, ofInstance(instanceId, { registration_reused_at: { $gte: since } })),
    ]);
    return Math.max(0, registered - reused);
  }

  /**
   * By number, the latest row of the instance other than `exclude` that the key `keyRef`
   * registered: the provider's registration a re-added number can take over (ADR 0236).
   */
  async priorRegistrations(
    tenantId: string,
    instanceId: number,
    numbers: string[],
    keyRef: string,
    exclude: number[],
  ): Promise<Map<string, TrackingDocument>> {
    const rows = await this.findMany(
      tenantId,
      ofInstance(instanceId, {
        tracking_number: { $in: numbers },
        registered_at: IS_SET,
        registered_key_ref: keyRef,
        id: { $nin: exclude },
      }),
      { sort: { id: 1 } },
    );
    return new Map(rows.map((row) => [row.tracking_number, row]));
  }

  /**
   * A stopped row whose registration the provider still holds hands it to the row re-adding its
   * number: it leaves the stopping queue, so the number is not stopped under the new row. Only
   * while no worker holds the row (the stopping worker may be stopping it now) and it is not
   * active; answers whether it was handed over.
   */
  async handOverRegistration(tenantId: string, id: number, now: Date): Promise<boolean> {
    const { modified } = await this.updateOne(
      tenantId,
      {
        id,
        active: false,
        provider_stopped_at: null,
        $or: [{ lease_until: null }, { lease_until: { $lte: now } }],
      },
      { $set: { provider_stopped_at: now, updated_at: now } },
    );
    return modified === 1;
  }

  async lastEventAt(tenantId: string, instanceId: number): Promise<Date | null> {
    const [row] = await this.findMany(tenantId, ofInstance(instanceId, { last_event_at: IS_SET }), {
      projection: { last_event_at: 1 },
      sort: { last_event_at: -1 },
      limit: 1,
    });
    return row?.last_event_at ?? null;
  }

  /** The instance's rows delivered within `[start, end)`. */
  async deliveredWithin(
    tenantId: string,
    instanceId: number,
    { start, end }: { start: Date; end: Date },
  ): Promise<DeliveredRow[]> {
    const rows = await this.findMany(
      tenantId,
      ofInstance(instanceId, { delivered_at: { $gte: start, $lt: end } }),
      { projection: DELIVERED_ROW_PROJECTION },
    );
    return rows as DeliveredRow[];
  }

  /**
   * When the rows whose transit statistics changed at or after `since` (`transit_changed_at`)
   * were delivered: the days whose kept sums are out of date. Read from index entries only; the
   * caller picks the days it keeps (a bound on `delivered_at` too would leave the choice of index
   * to a tie with the `delivered_at` index, which the embedded server breaks the wrong way).
   */
  async transitChangedSince(tenantId: string, instanceId: number, since: Date): Promise<Date[]> {
    const rows = await this.findMany(
      tenantId,
      ofInstance(instanceId, { transit_changed_at: { $gte: since } }),
      { projection: { _id: 0, delivered_at: 1 } },
    );
    return rows.flatMap((row) => (row.delivered_at ? [row.delivered_at] : []));
  }

  /**
   * Up to `limit` due rows of a queue, leased to `owner`: three round trips per round whatever
   * the limit, rounds going on past rows lost to another replica (`LeasedQueue.claimInTurn`).
   * Registration walks on in id order from the last row claimed; the other queues lose theirs.
   */
  claim(kind: WorkKind, options: ClaimOptions): Promise<TrackingDocument[]> {
    const { tenantId, owner, now, leaseMs, limit, afterId } = options;
    return this.queue.claimInTurn(
      dueQueries(kind, options).map(({ filter, sort }) => ({ due: filter, order: sort })),
      { scope: { tenantId }, owner, leaseMs, limit, now, after: afterId },
      kind === 'register',
    );
  }

  /**
   * Writes the worker's result for rows it claimed and frees their lease, only where the claim
   * that took them (`owner` and the rows' token) still holds them. Answers how many were written.
   */
  release(
    tenantId: string,
    owner: string,
    rows: Array<Pick<TrackingDocument, 'id' | 'lease_token'>>,
    changes: Record<string, unknown>,
    now: Date,
  ): Promise<number> {
    return this.queue.releaseHeld(
      tenantId,
      owner,
      rows.map((row) => ({ key: row.id, token: row.lease_token })),
      { ...changes, updated_at: now },
    );
  }
}
