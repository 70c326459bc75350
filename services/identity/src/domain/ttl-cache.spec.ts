import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  it('loads once within the TTL, again after it expires or is deleted', async () => {
    let now = 0;
    let loads = 0;
    const cache = new TtlCache<string, number>(1_000, 10, () => now);
    const load = async () => ++loads;
    expect(await cache.getOrLoad('a', load)).toBe(1);
    expect(await cache.getOrLoad('a', load)).toBe(1);
    now = 1_001;
    expect(await cache.getOrLoad('a', load)).toBe(2);
    cache.delete('a');
    expect(await cache.getOrLoad('a', load)).toBe(3);
  });

  it('stays bounded in size', async () => {
    const cache = new TtlCache<number, number>(60_000, 2);
    let loads = 0;
    for (const key of [1, 2, 3]) await cache.getOrLoad(key, async () => ++loads);
    expect(await cache.getOrLoad(1, async () => ++loads)).toBe(4);
  });
});
