import { randomUUID } from 'node:crypto';
import type { FilterQuery, Model, mongo, SortOrder, UpdateQuery } from 'mongoose';
import type { TenantOwned } from '../mongo/tenant-repository.js';

/**
 * The lease every leased queue's rows carry (ADR 0018). A claim writes all three; a release or a
 * finish is keyed by the owner and the token, so neither another worker nor another claim of the
 * same worker can write a row it does not hold.
 */
export interface Leased {
  /** The worker holding the row; null when none does. */
  lease_owner: string | null;
  /**
   * Until when the lease holds. A row is free once this is at or before now (null only in rows
   * stored before this convention; see `nullLeaseIsEmpty`).
   */
  lease_until: Date | null;
  /** Which claim took the lease: a claim reads back exactly the rows it won. */
  lease_token?: string;
}

/** The `lease_until` of a row free at once: an empty lease. */
export const NO_LEASE = new Date(0);

/** The rows no live lease holds at `now` (an empty lease, an expired one, a retry come due). */
export const unleasedAt = (now: Date) => ({ lease_until: { $lte: now } });

/**
 * Frees a row: no owner, and free again from `notBefore` (at once by default; a retry's time
 * holds it back until then, which is how a queue spells "retry at").
 */
export const emptyLease = (notBefore: Date = NO_LEASE) => ({
  lease_owner: null,
  lease_until: notBefore,
});

/** Whose rows a claim takes: one tenant's, or every tenant's (a job's work that is no tenant's). */
export type QueueScope = { tenantId: string } | 'acrossTenants';

/** What one queue declares once: how its rows are named and whether a claim is an attempt. */
export interface LeasedQueueDefinition<T> {
  /** A unique field naming a row: a claim reads candidates' keys, then leases by them. */
  key: keyof T & string;
  /** The field a claim increments: each claim counts an attempt. */
  countsAttempt?: keyof T & string;
  /**
   * The conditions under which a row is still this queue's to finish (say, not yet done): a
   * release and a finish write a row only while they hold.
   */
  held?: FilterQuery<T>;
  /**
   * Rows stored before this convention may keep an empty lease as null (parcel-tracking's did):
   * a claim takes them too. Transitional: once such rows are rewritten (`lease_until` set to
   * `NO_LEASE` where null), the queue drops the flag and its claims are the others' again.
   */
  nullLeaseIsEmpty?: boolean;
}

/** One claim: what differs between queues is only its filter, order and scope. */
export interface ClaimRequest<T> {
  scope: QueueScope;
  /** The rows due, without the lease condition (the queue adds it). */
  due: FilterQuery<T>;
  /** The order taken, oldest first; an index holding the due rows in it keeps a claim's reads to its rows. */
  order: Record<string, SortOrder>;
  owner: string;
  leaseMs: number;
  limit: number;
  now: Date;
  /**
   * Only candidates whose key is greater: a pass that claims batch after batch in key order walks
   * the index on from its last candidate instead of from the start again (ADR 0727). The lease
   * itself is by keys, so it does not repeat the bound.
   */
  after?: unknown;
}

/** A row named by its tenant and its key. */
export interface TenantKey {
  tenantId: string;
  key: unknown;
}

/** The lease a worker holds on rows: its owner and the claim's token. */
export interface Holder {
  owner: string;
  /** The claim's token (a row stored already leased carries one too). */
  token: string | undefined;
}

/** One row to finish: its tenant and key, the lease it is held by, and what to write. */
export interface Finish<T> {
  tenantId: string;
  key: unknown;
  holder: Holder;
  set: UpdateQuery<T>['$set'];
}

/**
 * A work queue over a collection's rows, leased in MongoDB so that any number of replicas share
 * the work: a row is leased by a write that requires it still due and free, and read back by the
 * claim's token, so exactly one claim wins it; a crashed worker's lease runs out and the row is
 * due again. A queue declares only what differs: its due filter, its order, its scope, and whether
 * a claim counts an attempt (ADR 0018).
 */
export class LeasedQueue<T extends TenantOwned & Leased> {
  constructor(
    private readonly model: Model<T>,
    private readonly definition: LeasedQueueDefinition<T>,
  ) {}

  /**
   * Up to `limit` due rows leased to `owner`, in three round trips whatever the limit (ADR 0224):
   * the candidates' keys, the lease on those still due and free (another replica may have taken
   * some first), and the rows this claim won, by key.
   */
  async claim(request: ClaimRequest<T>): Promise<T[]> {
    return this.lease(await this.dueKeys(request), request);
  }

  /**
   * Up to `request.limit` rows leased under one token from several due filters taken in turn (a
   * queue with more than one kind of due row, oldest kind first). Each filter's rounds go on past
   * rows lost to another replica until the limit is won or none is due. With `walksOn`, each
   * round starts after the last candidate's key (ADR 0727).
   */
  async claimInTurn(
    dues: Array<Pick<ClaimRequest<T>, 'due' | 'order'>>,
    request: Omit<ClaimRequest<T>, 'due' | 'order'>,
    walksOn = false,
  ): Promise<T[]> {
    // Names this claim's lease: another claim of the same owner at the same instant (two passes
    // of one replica) writes another token, so neither reads back the other's rows.
    const token = randomUUID();
    const claimed: T[] = [];
    let after = request.after;
    for (const { due, order } of dues) {
      while (claimed.length < request.limit) {
        const round = {
          ...request,
          due,
          order,
          after: walksOn ? after : undefined,
          limit: request.limit - claimed.length,
        };
        const keys = await this.dueKeys(round);
        if (keys.length === 0) break;
        after = keys[keys.length - 1];
        claimed.push(...(await this.lease(keys, round, token)));
      }
    }
    return claimed;
  }

  /** The keys of up to `limit` rows due and free at `now`, in the queue's order. */
  async dueKeys(request: ClaimRequest<T>): Promise<unknown[]> {
    const { key } = this.definition;
    return (await this.dueRows(request, { [key]: 1 })).map((row) => row[key]);
  }

  /**
   * The keys of up to `limit` rows due and free at `now`, in the queue's order, each with its
   * tenant: a claim that then leases them tenant by tenant (`leaseByTenant`) sends no look-up by
   * key without the tenant, which a collection sharded on the tenant needs (ADR 0237).
   */
  async dueKeysByTenant(request: ClaimRequest<T>): Promise<TenantKey[]> {
    const { key } = this.definition;
    const rows = await this.dueRows(request, { [key]: 1, tenant_id: 1, _id: 0 });
    return rows.map((row) => ({ tenantId: row.tenant_id as string, key: row[key] }));
  }

  /**
   * `lease` of the given rows, each tenant's rows leased and read back under their tenant (in
   * parallel, one token for all): no write or read of the claim goes to every shard.
   */
  async leaseByTenant(due: TenantKey[], request: ClaimRequest<T>): Promise<T[]> {
    const token = randomUUID();
    const won = await Promise.all(
      [...keysBy(due, (row) => row.tenantId)].map(([tenantId, keys]) =>
        this.lease(keys, { ...request, scope: { tenantId } }, token),
      ),
    );
    return won.flat();
  }

  /**
   * Leases the rows of `keys` still due and free, and answers the ones this call won, by key. A
   * claim taken in several rounds passes one `token` to each, so all its rows share it.
   */
  async lease(keys: unknown[], request: ClaimRequest<T>, token = randomUUID()): Promise<T[]> {
    if (keys.length === 0) return [];
    const { key, countsAttempt } = this.definition;
    const update = {
      $set: {
        lease_owner: request.owner,
        lease_until: new Date(request.now.getTime() + request.leaseMs),
        lease_token: token,
      },
      ...(countsAttempt ? { $inc: { [countsAttempt]: 1 } } : {}),
    } as UpdateQuery<T>;
    await this.model.updateMany(
      this.scoped(request.scope, this.claimable(request, { [key]: { $in: keys } })),
      update,
    );
    return this.model
      .find(this.scoped(request.scope, { [key]: { $in: keys }, lease_token: token }))
      .sort({ [key]: 1 })
      .lean<T[]>();
  }

  /**
   * Frees rows of one tenant that `holder` still holds, writing `set` with them; free again from
   * `notBefore` (at once by default). Answers how many were freed.
   */
  async release(
    tenantId: string,
    keys: unknown[],
    holder: Holder,
    set: Record<string, unknown> = {},
    notBefore?: Date,
  ): Promise<number> {
    if (keys.length === 0) return 0;
    const result = await this.model.updateMany(
      this.scoped({ tenantId }, this.heldBy(holder, { $in: keys })),
      { $set: { ...set, ...emptyLease(notBefore) } } as UpdateQuery<T>,
    );
    return result.modifiedCount;
  }

  /**
   * Frees rows of one tenant that `owner` holds, taken by one claim or several, writing `set`
   * with them: one write per claim's token. Answers how many were freed.
   */
  async releaseHeld(
    tenantId: string,
    owner: string,
    rows: Array<{ key: unknown; token: string | undefined }>,
    set: Record<string, unknown> = {},
  ): Promise<number> {
    let released = 0;
    for (const [token, keys] of keysBy(rows, (row) => row.token))
      released += await this.release(tenantId, keys, { owner, token }, set);
    return released;
  }

  /**
   * Writes many held rows' results in one unordered bulk write (rows of any tenants, each scoped
   * to its own), freeing their leases; a row whose lease was lost is not written. Answers how many
   * were.
   */
  async finishMany(finishes: Array<Finish<T>>): Promise<number> {
    if (finishes.length === 0) return 0;
    const collection = this.model.collection as unknown as mongo.Collection<T>;
    const written = await collection.bulkWrite(
      finishes.map(({ tenantId, key, holder, set }) => ({
        updateOne: {
          filter: this.scoped({ tenantId }, this.heldBy(holder, key)) as mongo.Filter<T>,
          update: { $set: { ...set, lease_owner: null } } as mongo.UpdateFilter<T>,
        },
      })),
      { ordered: false },
    );
    return written.modifiedCount;
  }

  /**
   * Frees many held rows (of any tenants, each scoped to its own) in one unordered bulk write,
   * free again at once; a row another claim holds by now is left alone.
   */
  async releaseMany(rows: Array<Omit<Finish<T>, 'set'>>): Promise<number> {
    return this.finishMany(rows.map((row) => ({ ...row, set: { lease_until: NO_LEASE } })));
  }

  /** Up to `limit` rows due and free at `now`, in the queue's order, with `projection`'s fields. */
  private dueRows(
    request: ClaimRequest<T>,
    projection: Record<string, 0 | 1>,
  ): Promise<Array<Record<string, unknown>>> {
    const { key } = this.definition;
    const after = request.after === undefined ? {} : { [key]: { $gt: request.after } };
    return this.model
      .find(this.scoped(request.scope, this.claimable(request, after)), projection)
      .sort(request.order)
      .limit(request.limit)
      .lean<Array<Record<string, unknown>>>();
  }

  /** Due, and free at `now`, and `also`; the queue's filter first, so its index's fields lead. */
  private claimable(request: ClaimRequest<T>, also: Record<string, unknown> = {}): FilterQuery<T> {
    if (this.definition.nullLeaseIsEmpty) {
      // One `$and` of every condition, as parcel-tracking's queue wrote it (its planner's shape).
      const unleased = { $or: [{ lease_until: null }, unleasedAt(request.now)] };
      const extra = Object.keys(also).length > 0 ? [also] : [];
      return { $and: [request.due, unleased, ...extra] } as FilterQuery<T>;
    }
    return { ...request.due, ...unleasedAt(request.now), ...also } as FilterQuery<T>;
  }

  /** The rows `holder` holds: the key, the queue's still-held conditions, owner and token. */
  private heldBy(holder: Holder, key: unknown): FilterQuery<T> {
    return {
      [this.definition.key]: key,
      ...this.definition.held,
      lease_owner: holder.owner,
      lease_token: holder.token ?? null,
    } as FilterQuery<T>;
  }

  /** The tenant last, so it always wins over the filter's own conditions. */
  private scoped(scope: QueueScope, filter: FilterQuery<T>): FilterQuery<T> {
    if (scope === 'acrossTenants') return filter;
    if (typeof scope.tenantId !== 'string' || scope.tenantId.length === 0)
      throw new Error('a tenant id is required for every tenant-scoped query');
    return { ...filter, tenant_id: scope.tenantId } as FilterQuery<T>;
  }
}

/** The rows' keys by group (their tenant, or the claim that leased them), in first-seen order. */
function keysBy<R extends { key: unknown }, G>(
  rows: R[],
  groupOf: (row: R) => G,
): Map<G, unknown[]> {
  const groups = new Map<G, unknown[]>();
  for (const row of rows) {
    const keys = groups.get(groupOf(row));
    if (keys) keys.push(row.key);
    else groups.set(groupOf(row), [row.key]);
  }
  return groups;
}
