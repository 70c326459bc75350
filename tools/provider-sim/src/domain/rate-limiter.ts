/**
 * Sliding one-second window per key: a request is allowed when fewer than `limit` requests
 * of the same key were allowed in the preceding 1000 ms. Refused requests are not counted.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
    private readonly windowMs = 1000,
  ) {}

  /** Records a request for `key` and says whether it is within the limit. */
  tryAcquire(key: string): boolean {
    const t = this.now();
    const recent = (this.hits.get(key) ?? []).filter((h) => t - h < this.windowMs);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return false;
    }
    recent.push(t);
    this.hits.set(key, recent);
    return true;
  }

  reset(): void {
    this.hits.clear();
  }
}
