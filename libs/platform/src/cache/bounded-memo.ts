/**
 * A pure function's results by argument, for arguments that repeat (the same few receiver URLs
 * and secrets take every delivery). Past `maxEntries` it starts over: a crude bound that costs
 * nothing per read, as `TtlCache`'s. Only for values that never go stale: a changed input must
 * be a different key.
 */
export class BoundedMemo<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(
    private readonly compute: (key: K) => V,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: K): V {
    if (this.entries.has(key)) return this.entries.get(key) as V;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = this.compute(key);
    this.entries.set(key, value);
    return value;
  }
}
