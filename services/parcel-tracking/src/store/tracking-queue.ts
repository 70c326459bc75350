import type { Connection } from 'mongoose';
import { TenantScopedRepository, type ScopedFilter } from '@inventory/platform';
import { TERMINAL_STATUSES } from '../domain/delivery-status.js';
import { trackingModel, type TrackingDocument } from './tracking-store.js';

export type WorkKind = 'register' | 'poll' | 'stop';

export interface ClaimOptions {
  tenantId: string;
  instanceId: number;
  /** This worker's id; only the owner can release what it claimed. */
  owner: string;
  now: Date;
  leaseMs: number;
  limit: number;
  /** Polling: rows not refreshed since this time are due. */
  staleBefore?: Date;
  /** Stopping: rows delivered before this time are due. */
  deliveredBefore?: Date;
  /**
   * Only rows with a greater id: a worker's pass claims batch after batch in id order, and each
   * claim walks the index on from the last row claimed instead of from the start again.
   */
  afterId?: number;
}

/**
 * The workers' queues over tracking rows. A row is leased by a write that
 * requires it still due and unleased, so two replicas never send the same row to
 * the provider; a crashed worker's lease runs out and the row becomes due again.
 * Each queue has an index that holds its candidates in id order after its
 * equality fields (tracking-store.ts), so a claim walks them on from `afterId`:
 * a pass reads each row about once, however many are queued (ADR 0727).
 */
export class TrackingQueue extends TenantScopedRepository<TrackingDocument> {
  constructor(connection: Connection) {
    super(trackingModel(connection));
  }

  private due(kind: WorkKind, options: ClaimOptions): ScopedFilter<TrackingDocument> {
    const base = { integration_instance_id: options.instanceId };
    if (kind === 'register')
      return {
        ...base,
        active: true,
        registered_at: null,
        registration_error: null,
        $or: [{ next_attempt_at: null }, { next_attempt_at: { $lte: options.now } }],
      };
    if (kind === 'poll')
      return {
        ...base,
        active: true,
        registered_at: { $ne: null },
        delivery_status: { $nin: TERMINAL_STATUSES },
        $or: [{ last_polled_at: null }, { last_polled_at: { $lt: options.staleBefore } }],
      };
    // Stop: delivered long enough ago, or stopped here (number changed or removed) but not yet there.
    return {
      ...base,
      registered_at: { $ne: null },
      provider_stopped_at: null,
      $or: [
        { active: true, delivered_at: { $ne: null, $lte: options.deliveredBefore } },
        { active: false, stopped_at: { $ne: null } },
      ],
    };
  }

  /**
   * Up to `limit` due rows, leased to `owner`, in id order after `afterId`. Three round trips per
   * round whatever the limit: the next candidates' ids, the lease on those still due (another
   * replica may have taken some first), and the rows this lease won. Rounds go on past rows lost
   * to another replica until `limit` are won or none is due.
   */
  async claim(kind: WorkKind, options: ClaimOptions): Promise<TrackingDocument[]> {
    const { tenantId, owner, now, leaseMs, limit } = options;
    const due = this.due(kind, options);
    const unleased = { $or: [{ lease_until: null }, { lease_until: { $lt: now } }] };
    // With the owner, names this call's lease: rows it already held are not unleased, so not taken.
    const leaseUntil = new Date(now.getTime() + leaseMs);
    const claimed: TrackingDocument[] = [];
    let afterId = options.afterId;
    while (claimed.length < limit) {
      const after = afterId === undefined ? [] : [{ id: { $gt: afterId } }];
      const candidates = await this.findMany(
        tenantId,
        { $and: [due, unleased, ...after] },
        { projection: { id: 1 }, sort: { id: 1 }, limit: limit - claimed.length },
      );
      if (candidates.length === 0) break;
      const ids = candidates.map((row) => row.id);
      afterId = ids[ids.length - 1];
      await this.updateMany(
        tenantId,
        { $and: [due, unleased, { id: { $in: ids } }] },
        { $set: { lease_owner: owner, lease_until: leaseUntil } },
      );
      claimed.push(
        ...(await this.findMany(
          tenantId,
          { id: { $in: ids }, lease_owner: owner, lease_until: leaseUntil },
          { sort: { id: 1 } },
        )),
      );
    }
    return claimed;
  }

  /** Writes the worker's result and frees the lease, only if this worker still holds it. */
  async release(
    tenantId: string,
    owner: string,
    ids: number[],
    changes: Record<string, unknown>,
    now: Date,
  ): Promise<number> {
    if (ids.length === 0) return 0;
    const { modified } = await this.updateMany(
      tenantId,
      { id: { $in: ids }, lease_owner: owner },
      { $set: { ...changes, lease_owner: null, lease_until: null, updated_at: now } },
    );
    return modified;
  }
}
