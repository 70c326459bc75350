import { describe, expect, it } from 'vitest';
import { tokenUsage, usageWindow } from './token-usage.js';

describe('token usage', () => {
  const now = new Date('2026-03-10T15:00:00Z');

  it('covers whole UTC days, 30 by default, at most 90', () => {
    expect(usageWindow(0, now)).toEqual({ days: 30, start: new Date('2026-02-09T00:00:00Z') });
    expect(usageWindow(2, now)).toEqual({ days: 2, start: new Date('2026-03-09T00:00:00Z') });
    expect(usageWindow(500, now).days).toBe(90);
  });

  it('counts requests and errors per day and takes the latency percentiles', () => {
    const at = (iso: string) => new Date(iso);
    const usage = tokenUsage(
      [
        { status: 200, duration_ms: 10, at: at('2026-03-10T01:00:00Z') },
        { status: 500, duration_ms: 30, at: at('2026-03-10T02:00:00Z') },
        { status: 404, duration_ms: 20, at: at('2026-03-09T02:00:00Z') },
        { status: 201, duration_ms: 40, at: at('2026-03-09T03:00:00Z') },
      ],
      usageWindow(2, now),
    );
    expect(usage).toEqual({
      days: 2,
      totalRequests: 4,
      errorRate: 0.5,
      p50Ms: 20,
      p95Ms: 40,
      perDay: [
        { date: '2026-03-09', requests: 2, errors: 1 },
        { date: '2026-03-10', requests: 2, errors: 1 },
      ],
    });
  });

  it('answers zeros for a token without requests', () => {
    expect(tokenUsage([], usageWindow(1, now))).toMatchObject({
      totalRequests: 0,
      errorRate: 0,
      p50Ms: 0,
      p95Ms: 0,
      perDay: [{ date: '2026-03-10', requests: 0, errors: 0 }],
    });
  });
});
