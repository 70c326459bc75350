export { percentile } from '../lib/percentile.js';

/** The figures the gateway bench reports, and whether they meet the targets. */
export interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p90: number; p99: number };
  non2xx: number;
  errors: number;
}

export const TARGET_THROUGHPUT_RATIO = 0.4;
export const TARGET_P99_MS = 10;

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** The gateway's share of the bare server's throughput, measured in the same run. */
export function throughputRatio(gateway: LoadResult, bare: LoadResult): number {
  return bare.requests.average > 0 ? round3(gateway.requests.average / bare.requests.average) : 0;
}

export function fixedRateFigures(requestedRate: number, result: LoadResult) {
  return {
    requested_req_per_s: requestedRate,
    achieved_req_per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p90_ms: result.latency.p90,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

export interface RateFigures {
  requested_req_per_s: number;
  achieved_req_per_s: number;
  p99_ms: number;
  non_2xx: number;
  errors: number;
}

/**
 * A latency target only counts when the rate was actually sustained (within 5%)
 * without errors: a server that falls behind would otherwise look fast.
 */
export function latencyTargetMet(figures: RateFigures): boolean {
  return (
    figures.achieved_req_per_s >= figures.requested_req_per_s * 0.95 &&
    figures.non_2xx === 0 &&
    figures.errors === 0 &&
    figures.p99_ms < TARGET_P99_MS
  );
}
