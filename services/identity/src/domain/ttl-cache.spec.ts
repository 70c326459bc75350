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

  it('shares one load between callers that miss together', async () => {
    const cache = new TtlCache<string, number>(1_000);
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      loads++;
      await gate;
      return loads;
    };
    const waiting = Array.from({ length: 10 }, () => cache.getOrLoad('a', load));
    release();
    expect(await Promise.all(waiting)).toEqual(Array(10).fill(1));
    expect(loads).toBe(1);
  });

  it('does not cache a load that a delete overtook, nor a failed one', async () => {
    const cache = new TtlCache<string, string>(60_000);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stale = cache.getOrLoad('a', async () => {
      await gate;
      return 'before the change';
    });
    cache.delete('a');
    release();
    expect(await stale).toBe('before the change');
    expect(await cache.getOrLoad('a', async () => 'after the change')).toBe('after the change');

    await expect(
      cache.getOrLoad('b', async () => {
        throw new Error('store unavailable');
      }),
    ).rejects.toThrow('store unavailable');
    expect(await cache.getOrLoad('b', async () => 'retried')).toBe('retried');
  });
});
