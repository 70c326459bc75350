import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { LeasedQueue, TenantScopedRepository, type ScopedFilter } from '@inventory/platform';
import { DELIVERY_STATUSES, TERMINAL_STATUSES } from '../domain/delivery-status.js';
import { IS_SET, trackingModel, type TrackingDocument } from './tracking.js';

export type WorkKind = 'register' | 'poll' | 'stop';

/** The statuses polling still asks about, as points an index can bound (`$nin` cannot). */
const NOT_TERMINAL = DELIVERY_STATUSES.filter((status) => !TERMINAL_STATUSES.includes(status));

interface DueQuery {
  filter: ScopedFilter<TrackingDocument>;
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
 * The workers' queues over tracking rows. A row is leased by a write that
 * requires it still due and unleased, so two replicas never send the same row to
 * the provider; a crashed worker's lease runs out and the row becomes due again.
 * Each queue's queries are bounded by an index to its due rows (tracking.ts):
 * a pass reads each row about once however many are queued (ADR 0727), and a pass
 * with nothing due reads nothing, however many rows the instance has (ADR 0730).
 */
export class TrackingQueue extends TenantScopedRepository<TrackingDocument> {
  /**
   * The platform's leased queue (ADR 0018), one tenant's rows per claim; a claim is not an attempt
   * (registration counts its own). Rows written before it keep an empty lease as null.
   */
  private readonly queue: LeasedQueue<TrackingDocument>;

  constructor(connection: Connection) {
    super(trackingModel(connection));
    // The model unscoped, for the queue, which scopes every claim and release to its tenant.
    this.queue = new LeasedQueue(this.acrossTenants(), { key: 'id', nullLeaseIsEmpty: true });
  }

  /**
   * The queue's due rows, as index-bounded queries taken in turn, each with the order its index
   * serves (so a claim reads only the rows it takes): registration's one, walked in id order from
   * `afterId` (a row refused for now stays queued until its next attempt); polling's and stopping's two
   * each, bounded to the rows due (ADR 0730), which a handled row leaves, oldest first.
   */
  private dueQueries(kind: WorkKind, options: ClaimOptions): DueQuery[] {
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
   * Up to `limit` due rows, leased to `owner`. Three round trips per round whatever the limit: the
   * next candidates' ids, the lease on those still due (another replica may have taken some
   * first), and the rows this lease won. Rounds go on past rows lost to another replica until
   * `limit` are won or none is due.
   */
  async claim(kind: WorkKind, options: ClaimOptions): Promise<TrackingDocument[]> {
    const { tenantId, owner, now, leaseMs, limit } = options;
    // Names this call's lease: another claim of the same owner at the same instant (two passes
    // of one replica) writes another token, so neither reads back the other's rows.
    const token = randomUUID();
    // Registration walks on in id order from the last row claimed; the other queues lose theirs.
    const walksOn = kind === 'register';
    const claimed: TrackingDocument[] = [];
    let afterId = options.afterId;
    for (const { filter: due, sort } of this.dueQueries(kind, options)) {
      while (claimed.length < limit) {
        const request = {
          scope: { tenantId },
          due,
          ...(walksOn && afterId !== undefined ? { after: afterId } : {}),
          order: sort,
          owner,
          leaseMs,
          limit: limit - claimed.length,
          now,
        };
        const ids = (await this.queue.dueKeys(request)) as number[];
        if (ids.length === 0) break;
        afterId = ids[ids.length - 1];
        claimed.push(...(await this.queue.lease(ids, request, token)));
      }
    }
    return claimed;
  }

  /**
   * Writes the worker's result for rows it claimed and frees their lease, only where the claim
   * that took them (`owner` and the rows' token) still holds them. Answers how many were written.
   */
  async release(
    tenantId: string,
    owner: string,
    rows: Array<Pick<TrackingDocument, 'id' | 'lease_token'>>,
    changes: Record<string, unknown>,
    now: Date,
  ): Promise<number> {
    // One write per claim the rows came from (a batch is one claim's: one write).
    const byToken = new Map<string | undefined, number[]>();
    for (const row of rows)
      byToken.set(row.lease_token, [...(byToken.get(row.lease_token) ?? []), row.id]);
    let released = 0;
    for (const [token, ids] of byToken)
      released += await this.queue.release(
        tenantId,
        ids,
        { owner, token },
        { ...changes, updated_at: now },
      );
    return released;
  }
}
