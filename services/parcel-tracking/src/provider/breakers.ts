import CircuitBreaker from 'opossum';
import { ProviderError } from './errors.js';
import { keyFingerprint } from './key-fingerprint.js';

type Call<T> = (endpoint: string, apiKey: string, body: unknown) => Promise<T>;

export interface ProviderBreakersOptions {
  resetMs: number;
  /** At most this many keys keep a breaker; the least recently used is dropped first. */
  maxKeys?: number;
  /** A closed breaker unused this long is dropped (its rolling window holds a timer). */
  idleMs?: number;
  now?: () => number;
}

const WINDOW = {
  timeout: false as const, // each request carries its own timeout
  errorThresholdPercentage: 50,
  volumeThreshold: 5,
  rollingCountTimeout: 10_000,
};

const isOpenRejection = (error: unknown) => (error as { code?: string }).code === 'EOPENBREAKER';
const unreachable = (error: unknown) => error instanceof ProviderError && error.detail.unreachable;

/**
 * The provider's breakers, two levels deep (ADR 0211). A breaker per API key counts every failure
 * of that key (429s, 5xx, other codes; not a rejected key), so one tenant's rate limit or errors
 * fail fast for that key only. One shared breaker counts only calls that never got an answer
 * (connection refused, timeouts): an outage of the provider itself, which fails every key.
 * The per-key map is bounded by `maxKeys` (LRU) and `idleMs`, so memory does not grow with keys.
 */
export class ProviderBreakers<T> {
  readonly shared: CircuitBreaker<[string, string, unknown], T>;
  private readonly perKey = new Map<string, { breaker: CircuitBreaker; usedAt: number }>();
  private readonly maxKeys: number;
  private readonly idleMs: number;
  private readonly now: () => number;

  constructor(
    call: Call<T>,
    private readonly options: ProviderBreakersOptions,
  ) {
    this.maxKeys = options.maxKeys ?? 1_000;
    this.idleMs = options.idleMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
    this.shared = new CircuitBreaker(call, {
      ...WINDOW,
      resetTimeout: options.resetMs,
      // An answer of any kind, even a refusal, shows the provider is up.
      errorFilter: (error: unknown) => !unreachable(error),
    });
  }

  fire(endpoint: string, apiKey: string, body: unknown): Promise<T> {
    return this.forKey(apiKey).fire(endpoint, apiKey, body) as Promise<T>;
  }

  /** The key's breaker, if it has one now (for tests and metrics). */
  peek(apiKey: string): CircuitBreaker | undefined {
    return this.perKey.get(keyFingerprint(apiKey))?.breaker;
  }

  get size(): number {
    return this.perKey.size;
  }

  shutdown(): void {
    for (const { breaker } of this.perKey.values()) breaker.shutdown();
    this.perKey.clear();
    this.shared.shutdown();
  }

  private forKey(apiKey: string): CircuitBreaker {
    const name = keyFingerprint(apiKey);
    const now = this.now();
    const known = this.perKey.get(name);
    // Map order is use order: re-inserting moves the key to the newest end.
    if (known) this.perKey.delete(name);
    const entry = known ?? {
      breaker: new CircuitBreaker((e: string, k: string, b: unknown) => this.shared.fire(e, k, b), {
        ...WINDOW,
        resetTimeout: this.options.resetMs,
        // A rejected key says nothing about the key's health at the provider, and the shared
        // breaker being open is the provider's state, not this key's.
        errorFilter: (error: unknown) =>
          (error instanceof ProviderError && error.code === 'invalid_key') ||
          isOpenRejection(error),
      }),
      usedAt: now,
    };
    entry.usedAt = now;
    this.perKey.set(name, entry);
    this.evict(now);
    return entry.breaker;
  }

  private evict(now: number): void {
    for (const [name, entry] of this.perKey) {
      const over = this.perKey.size > this.maxKeys;
      const idle = now - entry.usedAt >= this.idleMs && entry.breaker.closed;
      if (!over && !idle) return; // the rest were used more recently
      entry.breaker.shutdown();
      this.perKey.delete(name);
    }
  }
}
