/**
 * One load per key at a time: callers that ask for a key while its load is under
 * way share that load instead of starting their own (no stampede when a cached
 * entry expires under load).
 *
 * `forget` says the key changed meanwhile: the load under way still answers the
 * callers already waiting for it (they asked before the change), but it is no
 * longer current, so the next caller starts a new load and the old one's
 * `whenCurrent` (typically "cache it") does not run.
 */
export class SingleFlight<K, V> {
  private readonly flights = new Map<K, Promise<V>>();

  run(key: K, load: () => Promise<V>, whenCurrent?: (value: V) => void): Promise<V> {
    const pending = this.flights.get(key);
    if (pending) return pending;
    const started: Promise<V> = load().then(
      (value) => {
        if (this.flights.get(key) === started) {
          this.flights.delete(key);
          whenCurrent?.(value);
        }
        return value;
      },
      (error: unknown) => {
        if (this.flights.get(key) === started) this.flights.delete(key);
        throw error;
      },
    );
    this.flights.set(key, started);
    return started;
  }

  forget(key: K): void {
    this.flights.delete(key);
  }

  /** Forgets every key `pick` selects, for a change that touches several keys. */
  forgetWhere(pick: (key: K) => boolean): void {
    for (const key of [...this.flights.keys()]) if (pick(key)) this.flights.delete(key);
  }

  clear(): void {
    this.flights.clear();
  }
}
