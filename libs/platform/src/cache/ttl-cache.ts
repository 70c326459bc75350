import { SingleFlight } from './single-flight.js';

export interface TtlCacheOptions<V> {
  /** How long a loaded value is kept, in ms; a function decides per value (0 or less: not kept). */
  ttlMs: number | ((value: V) => number);
  /** Past this many entries the cache starts over (a crude bound that costs nothing per read). */
  maxEntries?: number;
  now?: () => number;
}

/**
 * A read-through cache with a time-to-live and one load per key at a time
 * (`SingleFlight`): callers that miss together share one load, so an entry
 * expiring under load does not become a stampede. A `delete` while a load is
 * under way means that load may predate the change: it still answers the callers
 * already waiting for it, but it is not cached and nobody new joins it. A failed
 * load is never cached. Used for reads whose staleness is bounded and owned
 * elsewhere (the gateway's token and tenant caches, identity's profile cache).
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();
  /** Loads under way, by flight key (the entry's key unless the caller shares loads differently). */
  private readonly loads = new SingleFlight<unknown, V>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: TtlCacheOptions<V>) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The fresh entry for `key`, if any (its value may itself be `undefined` or `null`). */
  peek(key: K): { value: V } | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expires > this.now() ? { value: hit.value } : undefined;
  }

  /**
   * The cached value, or the result of `load`, kept for its TTL under `key`.
   * `flightKey` names who may share the load (default: `key`), for a load that
   * depends on more than the entry's key, such as the calling tenant.
   */
  async getOrLoad(key: K, load: () => Promise<V>, flightKey: unknown = key): Promise<V> {
    const hit = this.peek(key);
    if (hit) return hit.value;
    return this.loads.run(flightKey, load, (value) => this.set(key, value));
  }

  set(key: K, value: V): void {
    const ttl =
      typeof this.options.ttlMs === 'function' ? this.options.ttlMs(value) : this.options.ttlMs;
    if (ttl <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, expires: this.now() + ttl });
  }

  /** Drops the entry and the load under way for `key` (the value changed). */
  delete(key: K): void {
    this.entries.delete(key);
    this.loads.forget(key);
  }

  /** Drops the entry only, leaving any load under way current. */
  deleteEntry(key: K): void {
    this.entries.delete(key);
  }

  /**
   * Drops the entries whose key `pick` selects, and the loads under way for them (a change that
   * touches several keys); loads shared under another flight key are the caller's to forget.
   */
  deleteWhere(pick: (key: K) => boolean): void {
    for (const key of this.entries.keys()) if (pick(key)) this.entries.delete(key);
    this.loads.forgetWhere((flightKey) => pick(flightKey as K));
  }

  /** Forgets the loads under way whose flight key `pick` selects (a change that touches several). */
  forgetLoadsWhere(pick: (flightKey: unknown) => boolean): void {
    this.loads.forgetWhere(pick);
  }

  clear(): void {
    this.entries.clear();
    this.loads.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
