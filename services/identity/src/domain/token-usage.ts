/** A token's usage over a window of whole UTC days. */
export interface TokenUsageFigures {
  days: number;
  totalRequests: number;
  /** Share of requests answered with a status of 400 or more, to 4 decimals. */
  errorRate: number;
  p50Ms: number;
  p95Ms: number;
  perDay: Array<{ date: string; requests: number; errors: number }>;
}

export const MAX_USAGE_DAYS = 90;

/** The window asked for, within 1..90 (30 when unset); and the first UTC day it covers. */
export function usageWindow(days: number, now: Date): { days: number; start: Date } {
  const window = Math.min(Math.max(1, days || 30), MAX_USAGE_DAYS);
  const start = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (window - 1)),
  );
  return { days: window, start };
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return Math.round(sorted[index]! * 100) / 100;
}

/** Requests per day, error rate (status >= 400) and p50/p95 latency of the window's rows. */
export function tokenUsage(
  rows: Array<{ status: number; duration_ms: number; at: Date }>,
  window: { days: number; start: Date },
): TokenUsageFigures {
  const perDay = new Map<string, { requests: number; errors: number }>();
  for (let i = 0; i < window.days; i++) {
    perDay.set(new Date(window.start.getTime() + i * 86_400_000).toISOString().slice(0, 10), {
      requests: 0,
      errors: 0,
    });
  }
  let errors = 0;
  for (const row of rows) {
    const day = perDay.get(row.at.toISOString().slice(0, 10));
    const failed = row.status >= 400;
    if (failed) errors++;
    if (day) {
      day.requests++;
      if (failed) day.errors++;
    }
  }
  const durations = rows.map((row) => row.duration_ms).sort((a, b) => a - b);
  return {
    days: window.days,
    totalRequests: rows.length,
    errorRate: rows.length === 0 ? 0 : Math.round((errors / rows.length) * 10_000) / 10_000,
    p50Ms: percentile(durations, 0.5),
    p95Ms: percentile(durations, 0.95),
    perDay: [...perDay.entries()].map(([date, counts]) => ({ date, ...counts })),
  };
}
