import { describe, expect, it } from 'vitest';
import { SingleFlight } from './single-flight.js';

/** A load that resolves when told to, counting how often it started. */
function gatedLoad<V>(value: V) {
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

describe('SingleFlight', () => {
  it('shares one load between callers of a key, and runs whenCurrent once', async () => {
    const flights = new SingleFlight<string, number>();
    const load = gatedLoad(7);
    const current: number[] = [];
    const waiting = Array.from({ length: 5 }, () =>
      flights.run('a', load.run, (value) => current.push(value)),
    );
    load.release();
    expect(await Promise.all(waiting)).toEqual([7, 7, 7, 7, 7]);
    expect(load.starts).toBe(1);
    expect(current).toEqual([7]);
    // Settled: the next caller starts a new load.
    const again = gatedLoad(8);
    const next = flights.run('a', again.run);
    again.release();
    expect(await next).toBe(8);
  });

  it('lets a forgotten load answer its waiters only, never as current', async () => {
    const flights = new SingleFlight<string, string>();
    const stale = gatedLoad('before');
    const current: string[] = [];
    const first = flights.run('a', stale.run, (value) => current.push(value));
    flights.forgetWhere((key) => key === 'a');
    const fresh = gatedLoad('after');
    const second = flights.run('a', fresh.run, (value) => current.push(value));
    stale.release();
    fresh.release();
    expect([await first, await second]).toEqual(['before', 'after']);
    expect(current).toEqual(['after']);
  });

  it('does not keep a failed load', async () => {
    const flights = new SingleFlight<string, string>();
    await expect(
      flights.run('a', async () => {
        throw new Error('unavailable');
      }),
    ).rejects.toThrow('unavailable');
    expect(await flights.run('a', async () => 'retried')).toBe('retried');
  });
});
