/**
 * A small read-through cache with a time-to-live, bounded in size. Used only for
 * reads whose staleness is already bounded elsewhere (the gateway caches token
 * records for the same few seconds), never for credentials.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();
  /** Loads under way: callers that miss together share one. */
  private readonly loading = new Map<K, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return hit.value;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const started = load().then((value) => {
      // Deleted while loading: the value may predate the change, so it answers only its waiters.
      if (this.loading.get(key) === started) {
        if (this.entries.size >= this.maxEntries) this.entries.clear();
        this.entries.set(key, { value, expires: this.now() + this.ttlMs });
      }
      return value;
    });
    this.loading.set(key, started);
    const forget = () => {
      if (this.loading.get(key) === started) this.loading.delete(key);
    };
    started.then(forget, forget);
    return started;
  }

  delete(key: K): void {
    this.entries.delete(key);
    this.loading.delete(key);
  }
}
