import { describe, expect, it } from 'vitest';
import { isSteady, pooled } from './measure.js';

describe('pooled measurements', () => {
  it('sums CPU and operations, takes the median of each percentile and sums failures', () => {
    const measurement = (gatewayMs: number, p99: number, failures = 0) => ({
      operations: 1000,
      cpuMs: { gateway: gatewayMs, redis: 10 },
      latency: { p50_ms: p99 / 10, p95_ms: p99 / 2, p99_ms: p99 },
      failures,
    });
    expect(pooled([measurement(100, 30), measurement(300, 10, 1), measurement(200, 20)])).toEqual({
      operations: 3000,
      cpuMs: { gateway: 600, redis: 30 },
      latency: { p50_ms: 2, p95_ms: 10, p99_ms: 20 },
      failures: 1,
    });
  });
});

describe('steady warm-up windows', () => {
  it('is steady only when the last two windows differ by at most 10 % of the earlier one', () => {
    expect(isSteady([])).toBe(false);
    expect(isSteady([240])).toBe(false);
    // The bare server's first windows on this machine: still falling.
    expect(isSteady([240, 71])).toBe(false);
    expect(isSteady([240, 71, 41])).toBe(false);
    expect(isSteady([240, 71, 41, 32, 33])).toBe(true);
    expect(isSteady([100, 110])).toBe(true);
    expect(isSteady([100, 90])).toBe(true);
    expect(isSteady([100, 111])).toBe(false);
    expect(isSteady([100, 89])).toBe(false);
  });

  it('takes two windows within an absolute floor as steady when it is wider than 10 %', () => {
    // The idle system's CPU per second, read in 10 ms ticks per process.
    expect(isSteady([48, 56], 10)).toBe(true);
    expect(isSteady([56, 47], 10)).toBe(true);
    expect(isSteady([124, 76], 10)).toBe(false);
    expect(isSteady([48, 59], 10)).toBe(false);
    expect(isSteady([300, 329], 10)).toBe(true);
  });
});
