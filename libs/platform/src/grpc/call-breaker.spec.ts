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
});
