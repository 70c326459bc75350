import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

/** A load that resolves when told to, counting how often it started. */
function gated<V>(value: V) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const load = {
    starts: 0,
    release: () => release(),
    run: async () => {
      load.starts++;
      await gate;
      return value;
    },
  };
  return load;
}

describe('TtlCache', () => {
  it('loads once within the TTL, again after it expires or is deleted', async () => {
    let now = 0;
    let loads = 0;
    const cache = new TtlCache<string, number>({ ttlMs: 1_000, maxEntries: 10, now: () => now });
    const load = async () => ++loads;
    expect(await cache.getOrLoad('a', load)).toBe(1);
    expect(await cache.getOrLoad('a', load)).toBe(1);
    now = 1_001;
    expect(await cache.getOrLoad('a', load)).toBe(2);
    cache.delete('a');
    expect(await cache.getOrLoad('a', load)).toBe(3);
  });

  it('stays bounded in size', async () => {
    const cache = new TtlCache<number, number>({ ttlMs: 60_000, maxEntries: 2 });
    let loads = 0;
    for (const key of [1, 2, 3]) await cache.getOrLoad(key, async () => ++loads);
    expect(await cache.getOrLoad(1, async () => ++loads)).toBe(4);
  });

  it('shares one load between callers that miss together', async () => {
    const cache = new TtlCache<string, number>({ ttlMs: 1_000 });
    const load = gated(1);
    const waiting = Array.from({ length: 10 }, () => cache.getOrLoad('a', load.run));
    load.release();
    expect(await Promise.all(waiting)).toEqual(Array(10).fill(1));
    expect(load.starts).toBe(1);
  });

  it('does not cache a load that a delete overtook, nor a failed one', async () => {
    const cache = new TtlCache<string, string>({ ttlMs: 60_000 });
    const stale = gated('before the change');
    const first = cache.getOrLoad('a', stale.run);
    cache.delete('a');
    stale.release();
    expect(await first).toBe('before the change');
    expect(await cache.getOrLoad('a', async () => 'after the change')).toBe('after the change');

    await expect(
      cache.getOrLoad('b', async () => {
        throw new Error('store unavailable');
      }),
    ).rejects.toThrow('store unavailable');
    expect(await cache.getOrLoad('b', async () => 'retried')).toBe('retried');
  });

  it('keeps each value for its own TTL; a TTL of 0 keeps nothing', async () => {
    let now = 0;
    const cache = new TtlCache<string, string | null>({
      ttlMs: (value) => (value === null ? 100 : value === 'skip' ? 0 : 1_000),
      now: () => now,
    });
    await cache.getOrLoad('missing', async () => null);
    await cache.getOrLoad('found', async () => 'tenant');
    await cache.getOrLoad('skipped', async () => 'skip');
    expect(cache.peek('missing')).toEqual({ value: null });
    expect(cache.peek('skipped')).toBeUndefined();
    now = 101;
    expect(cache.peek('missing')).toBeUndefined();
    expect(cache.peek('found')).toEqual({ value: 'tenant' });
  });

  it('shares loads by flight key, and forgets the selected ones', async () => {
    const cache = new TtlCache<number, string>({ ttlMs: 60_000 });
    const forA = gated('a');
    const forB = gated('b');
    const a = cache.getOrLoad(7, forA.run, '7:a');
    const b = cache.getOrLoad(7, forB.run, '7:b');
    cache.forgetLoadsWhere((flight) => String(flight).startsWith('7:'));
    forA.release();
    forB.release();
    expect([await a, await b]).toEqual(['a', 'b']);
    expect(cache.peek(7)).toBeUndefined();
  });

  it('deletes the selected entries and their loads under way, and keeps the others', async () => {
    const cache = new TtlCache<string, string>({ ttlMs: 60_000 });
    await cache.getOrLoad('t1:1', async () => 'one');
    await cache.getOrLoad('t2:1', async () => 'other tenant');
    const inFlight = gated('read before the change');
    const loading = cache.getOrLoad('t1:2', inFlight.run);
    cache.deleteWhere((key) => key.startsWith('t1:'));
    inFlight.release();
    expect(await loading).toBe('read before the change');
    expect(cache.peek('t1:1')).toBeUndefined();
    expect(cache.peek('t1:2')).toBeUndefined();
    expect(cache.peek('t2:1')).toEqual({ value: 'other tenant' });
  });
});
