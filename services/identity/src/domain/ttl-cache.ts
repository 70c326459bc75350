import { SingleFlight } from '@inventory/platform';

/**
 * A small read-through cache with a time-to-live, bounded in size. Used only for
 * reads whose staleness is already bounded elsewhere (the gateway caches token
 * records for the same few seconds), never for credentials.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();
  /** Loads under way: callers that miss together share one. */
  private readonly loads = new SingleFlight<K, V>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return hit.value;
    // A delete while loading means the value may predate the change: it answers only its waiters.
    return this.loads.run(key, load, (value) => {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    });
  }

  delete(key: K): void {
    this.entries.delete(key);
    this.loads.forget(key);
  }
}
