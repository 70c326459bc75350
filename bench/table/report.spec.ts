import { describe, expect, it } from 'vitest';
import { buildRow, markdownTable, perProcess, type RowInput } from './report.js';

const input = (overrides: Partial<RowInput> = {}): RowInput => ({
  id: 'api-user',
  title: 'GET /api/user',
  rate: 1000,
  measured: {
    operations: 2000,
    cpuMs: { gateway: 600, identity: 200, redis: 0, mongo: 100 },
    latency: { p50_ms: 1.2, p95_ms: 4, p99_ms: 8 },
  },
  baselineTitle: 'bare',
  baseline: {
    operations: 2000,
    cpuMs: { bare: 300 },
    latency: { p50_ms: 0.5, p95_ms: 1, p99_ms: 2 },
  },
  ...overrides,
});

describe('bench table rows', () => {
  it('sums the CPU of every process per operation and divides by the baseline of the same run', () => {
    const row = buildRow(input());
    expect(row.cpu_us_per_op).toBe(450);
    expect(row.baseline_cpu_us_per_op).toBe(150);
    expect(row.cpu_ratio).toBe(3);
  });

  it('reports each process per operation, largest first, leaving out those that spent nothing', () => {
    expect(Object.entries(perProcess(input().measured))).toEqual([
      ['gateway', 300],
      ['identity', 100],
      ['mongo', 50],
    ]);
  });

  it('meets a target only when every bound holds and nothing failed', () => {
    expect(buildRow(input({ target: { cpuRatio: 4, p50Ms: 2, p99Ms: 10 } })).target_met).toBe(true);
    expect(buildRow(input({ target: { cpuRatio: 2.9 } })).target_met).toBe(false);
    expect(buildRow(input({ target: { p99Ms: 8 } })).target_met).toBe(false);
    const failed = input();
    failed.measured.failures = 1;
    expect(buildRow({ ...failed, target: { cpuRatio: 4 } }).target_met).toBe(false);
    expect(buildRow(input()).target_met).toBeUndefined();
  });

  it('meets no target when the baseline failed, and says so beside its figure', () => {
    const failed = input({ target: { cpuRatio: 4 } });
    failed.baseline.failures = 2;
    const row = buildRow(failed);
    expect(row.target_met).toBe(false);
    expect(markdownTable([row])).toContain('150 (bare; 2 failed)');
  });

  it('judges a one-process target on that process alone', () => {
    const row = buildRow(input({ target: { cpuRatio: 2, cpuOf: 'gateway' } }));
    expect(row.own_cpu_ratio).toBe(2);
    expect(row.target_met).toBe(true);
    expect(buildRow(input({ target: { cpuRatio: 1.9, cpuOf: 'gateway' } })).target_met).toBe(false);
  });

  it('takes the idle CPU of the row window off for the net ratio, and judges on the gross one', () => {
    // 1000/s: 100 ms/s idle is 100 µs per request, of the 450 measured.
    const row = buildRow(
      input({ idleCpuMsPerSecond: { catalog: 60, mongo: 40 }, target: { cpuRatio: 2.5 } }),
    );
    expect(row.net_of_idle_cpu_ratio).toBeCloseTo(350 / 150, 2);
    expect(row.cpu_ratio).toBe(3);
    expect(row.target_met).toBe(false);
    expect(markdownTable([row])).toContain('(net of idle 2.33)');
    expect(
      buildRow(input({ rate: 0, idleCpuMsPerSecond: { catalog: 60 } })).net_of_idle_cpu_ratio,
    ).toBeUndefined();
  });

  it('prints one Markdown line per row with the ratio and the verdict', () => {
    const table = markdownTable([buildRow(input({ target: { cpuRatio: 2 } }))]);
    const lines = table.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain('**3**');
    expect(lines[2]).toContain('CPU ≤ 2×: **not met**');
    expect(lines[2]).toContain('gateway 300, identity 100, mongo 50');
  });
});
