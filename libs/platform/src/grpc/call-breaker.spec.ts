import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCallBreaker } from './client.js';

describe('createCallBreaker', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps its rolling window without a snapshot timer: no snapshot event, failures still age out', async () => {
    const breaker = createCallBreaker(
      async (fail: boolean) => {
        if (fail) throw Object.assign(new Error('down'), { code: 14 });
        return 'ok';
      },
      { rollingCountTimeoutMs: 10_000, volumeThreshold: 100 },
    );
    const snapshots = vi.fn();
    breaker.status.on('snapshot', snapshots);

    await breaker.fire(true).catch(() => undefined);
    expect(breaker.stats.failures).toBe(1);
    vi.advanceTimersByTime(5_000);
    expect(breaker.stats.failures).toBe(1);
    // The window is ten 1-second buckets: eleven seconds on, the failure has left it.
    vi.advanceTimersByTime(6_000);
    expect(breaker.stats.failures).toBe(0);
    expect(snapshots).not.toHaveBeenCalled();
    breaker.shutdown();
  });

  it('rotates every breaker of one window length on one timer, running only while a breaker listens', async () => {
    const idle = vi.getTimerCount();
    const breakers = Array.from({ length: 50 }, () =>
      createCallBreaker(
        async (fail: boolean) => {
          if (fail) throw Object.assign(new Error('down'), { code: 14 });
          return 'ok';
        },
        { rollingCountTimeoutMs: 10_000, volumeThreshold: 1_000 },
      ),
    );
    expect(vi.getTimerCount()).toBe(idle + 1);

    // Every breaker's window still ages: a failure leaves each one after eleven seconds.
    await Promise.all(breakers.map((breaker) => breaker.fire(true).catch(() => undefined)));
    vi.advanceTimersByTime(5_000);
    expect(breakers.every((breaker) => breaker.stats.failures === 1)).toBe(true);
    vi.advanceTimersByTime(6_000);
    expect(breakers.every((breaker) => breaker.stats.failures === 0)).toBe(true);

    for (const breaker of breakers) breaker.shutdown();
    expect(vi.getTimerCount()).toBe(idle);
  });
});
