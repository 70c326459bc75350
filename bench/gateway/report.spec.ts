import { describe, expect, it } from 'vitest';
import {
  fixedRateFigures,
  latencyTargetMet,
  percentile,
  throughputRatio,
  type LoadResult,
} from './report.js';

const result = (average: number, p99: number, extra: Partial<LoadResult> = {}): LoadResult => ({
  requests: { average },
  latency: { p50: 1, p90: 2, p99 },
  non2xx: 0,
  errors: 0,
  ...extra,
});

describe('gateway bench report', () => {
  it('computes the throughput ratio against the baseline of the same run', () => {
    expect(throughputRatio(result(884, 80), result(16_559, 4))).toBe(0.053);
    expect(throughputRatio(result(10, 1), result(0, 1))).toBe(0);
  });

  it('counts the latency target only when the rate was sustained without errors', () => {
    expect(latencyTargetMet(fixedRateFigures(1000, result(990, 9)))).toBe(true);
    expect(latencyTargetMet(fixedRateFigures(1000, result(990, 12)))).toBe(false);
    expect(latencyTargetMet(fixedRateFigures(1000, result(900, 5)))).toBe(false);
    expect(latencyTargetMet(fixedRateFigures(1000, result(1000, 5, { non2xx: 3 })))).toBe(false);
  });

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 99)).toBe(0);
  });
});
