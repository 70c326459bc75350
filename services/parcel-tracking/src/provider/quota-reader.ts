import { TtlCache } from '@inventory/platform';
import type { ProviderClient, ProviderQuota } from './client.js';
import { keyFingerprint } from './key-fingerprint.js';

/**
 * The dashboard's live quota, per API key: read from the provider at most once per `ttlMs`, and
 * concurrent readers of one key share the one call under way. Without it every instance GET took
 * one of the key's 3 provider calls a second, so a tenant reading its dashboard a few times a
 * second queued behind the pacing without bound (issue 18, item 4). Failures are not cached.
 * Keys are held by their SHA-256, never in plain text.
 */
export class QuotaReader {
  private readonly cache: TtlCache<string, ProviderQuota>;

  constructor(
    private readonly provider: Pick<ProviderClient, 'getQuota' | 'metrics'>,
    options: { ttlMs: number; now?: () => number },
  ) {
    this.cache = new TtlCache({ ttlMs: options.ttlMs, now: options.now, maxEntries: 10_000 });
  }

  read(apiKey: string): Promise<ProviderQuota> {
    const key = keyFingerprint(apiKey);
    const cached = this.cache.peek(key);
    if (cached) {
      this.provider.metrics.quotaReads.inc({ source: 'cache' });
      return Promise.resolve(cached.value);
    }
    return this.cache.getOrLoad(key, () => {
      this.provider.metrics.quotaReads.inc({ source: 'provider' });
      return this.provider.getQuota(apiKey);
    });
  }
}
