/**
 * Slots a replica took from a key's shared budget in one Redis call and hands out itself (ADR
 * 0717). A key's first request, a slow key and a small budget take one slot per call, exactly as
 * before; a key whose requests keep using up its lease within `lifetimeMs` doubles the next
 * lease, up to `maxSlots`, and a lease that expires unused shrinks the next one to what was used.
 * Slots are counted in Redis when taken, so a replica never admits more than it was granted, and
 * an unused slot expires with its lease instead of being spent later against a fresher budget.
 */
export interface RateLease {
  limit: number;
  /** Slots granted by this lease's Redis call (the request that made the call used one). */
  granted: number;
  /** Slots not handed out yet. */
  left: number;
  /** The key's budget left in Redis right after the grant (the lease's slots already taken). */
  remainingAfterGrant: number;
  /** Unix seconds when the full budget is back, as Redis said at the grant. */
  resetAt: number;
  expiresAt: number;
}

export interface RateLeaseOptions {
  /** How long slots of a lease may be handed out. */
  lifetimeMs: number;
  /** The largest lease. */
  maxSlots: number;
  /** Past this many keys the table starts over (unused slots are dropped: never over-admits). */
  maxKeys: number;
  now: () => number;
}

/** A lease larger than one slot is taken only for budgets of at least this many per period. */
const LEASE_BUDGET_SHARE = 100;

export class RateLeases {
  private readonly leases = new Map<string, RateLease>();

  constructor(private readonly options: RateLeaseOptions) {}

  /** Hands out a slot of the key's live lease, if it has one for this limit. */
  take(key: string, limit: number): { remaining: number; resetAt: number } | undefined {
    const lease = this.leases.get(key);
    if (!lease || lease.left === 0 || lease.limit !== limit) return undefined;
    if (this.options.now() >= lease.expiresAt) return undefined;
    lease.left--;
    return { remaining: lease.remainingAfterGrant + lease.left, resetAt: lease.resetAt };
  }

  /**
   * How many slots the next Redis call for the key asks for: one for a small budget (a lease of
   * at most 1 % of it is otherwise the rule) and for a key seen first; twice the last lease when
   * the last one was used up before it expired; what the last one used when it expired first.
   */
  slotsToAsk(key: string, limit: number): number {
    const cap = Math.min(this.options.maxSlots, Math.floor(limit / LEASE_BUDGET_SHARE));
    const last = this.leases.get(key);
    if (cap <= 1 || !last) return 1;
    const used = last.granted - last.left;
    const wanted =
      last.left === 0 && this.options.now() < last.expiresAt ? last.granted * 2 : Math.max(1, used);
    return Math.min(cap, wanted);
  }

  /**
   * Records a grant of `granted` slots; the caller's request used the first. A single slot never
   * replaces a live lease with slots left (it was asked for beside the lease's own call).
   */
  granted(
    key: string,
    limit: number,
    granted: number,
    remainingAfterGrant: number,
    resetAt: number,
    /** When the call that granted them was made: the lease's lifetime runs from then. */
    askedAt: number = this.options.now(),
  ): void {
    const live = this.leases.get(key);
    if (granted === 1 && live && live.left > 0 && this.options.now() < live.expiresAt) return;
    if (this.leases.size >= this.options.maxKeys && !live) this.leases.clear();
    this.leases.set(key, {
      limit,
      granted,
      left: granted - 1,
      remainingAfterGrant,
      resetAt,
      expiresAt: askedAt + this.options.lifetimeMs,
    });
  }

  get size(): number {
    return this.leases.size;
  }
}
