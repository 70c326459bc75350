import autocannon from 'autocannon';
import { openLoop, type OpenLoopOptions, type OpenLoopResult } from '../lib/paced.js';
import { cpuMs } from '../lib/proc.js';
import { sum, type Latency, type Measured } from './report.js';

/** CPU milliseconds each named process spent while `work` ran (read from /proc before and after). */
export async function withCpu<T>(
  processes: Record<string, number>,
  work: () => Promise<T>,
): Promise<{ result: T; cpuMs: Record<string, number> }> {
  const before = Object.fromEntries(Object.entries(processes).map(([n, pid]) => [n, cpuMs(pid)]));
  const result = await work();
  const spent = Object.fromEntries(
    Object.entries(processes).map(([name, pid]) => [name, cpuMs(pid) - before[name]!]),
  );
  return { result, cpuMs: spent };
}

export const latencyOf = (result: OpenLoopResult): Latency => ({
  p50_ms: result.p50_ms,
  p95_ms: result.p95_ms,
  p99_ms: result.p99_ms,
});

/** Consecutive warm-up windows whose CPU per request differ by at most this share are steady. */
const STEADY_WITHIN = 0.1;

/**
 * Whether the last two windows (oldest first) agree within 10 %, or within `floor` when that is
 * wider: the idle system's CPU per second is small, and each of its processes is read in 10 ms
 * ticks, so two 10-second windows can differ by 10 ms/s in ticks alone.
 */
export function isSteady(values: readonly number[], floor = 0): boolean {
  if (values.length < 2) return false;
  const [previous, last] = values.slice(-2) as [number, number];
  return Math.abs(last - previous) <= Math.max(STEADY_WITHIN * previous, floor);
}

/**
 * Paced load in windows of `windowSeconds` until the CPU per request of `processes` (summed)
 * stops moving: two consecutive windows within 10 %, or `maxWindows`. A freshly started Node
 * server keeps getting cheaper for tens of seconds (optimised code, a young generation grown to
 * its allocation rate): the bare hello-world cost 240 µs/request in its first 500 requests, 71
 * over the next 10 s and 32–33 after 20 s on this machine. A ratio is only about the code when
 * both sides have reached that floor. Returns each window's µs/request, for the log.
 */
export async function warmUntilSteady(
  processes: Record<string, number>,
  options: OpenLoopOptions & { windowSeconds: number; maxWindows: number },
): Promise<{ usPerOp: number[]; steady: boolean }> {
  const total = Math.max(1, Math.round(options.ratePerSecond * options.windowSeconds));
  const { values: usPerOp, steady } = await windowsUntilSteady(options, async () => {
    const { cpuMs: spent } = await withCpu(processes, () => openLoop({ ...options, total }));
    return Math.round((sum(spent) * 1000) / total);
  });
  return { usPerOp, steady };
}

/** Idle windows this close (ms of CPU per second, all processes) are steady whatever their share. */
const IDLE_STEADY_FLOOR_MS = 10;

/**
 * Waits, reading the idle system's CPU in windows of `windowSeconds`, until two consecutive
 * windows agree within 10 % after at least `minWindows` (or `maxWindows`). Just after `npm start`
 * the parts still compile, connect and seed: the whole system idled at 124 ms of CPU per second
 * 30–50 s after start and at 76 after that, and a row measured in that tail pays for it. Returns
 * each window's CPU per second (all processes, for the log) and the last window's per process.
 */
export async function settleUntilIdle(
  processes: () => Record<string, number>,
  options: { windowSeconds: number; minWindows: number; maxWindows: number },
): Promise<{ msPerSecond: number[]; steady: boolean; last: Record<string, number> }> {
  let last: Record<string, number> = {};
  // Two windows of the start-up tail can agree too (87 and 89 ms/s 20 s after start, the gateway
  // alone still at 25): the first look is `minWindows` in.
  const { values: msPerSecond, steady } = await windowsUntilSteady(
    { ...options, floor: IDLE_STEADY_FLOOR_MS },
    async () => {
      const { cpuMs: spent } = await withCpu(
        processes(),
        () => new Promise((resolve) => setTimeout(resolve, options.windowSeconds * 1000)),
      );
      last = Object.fromEntries(
        Object.entries(spent).map(([name, ms]) => [name, Math.round(ms / options.windowSeconds)]),
      );
      return sum(last);
    },
  );
  return { msPerSecond, steady, last };
}

/**
 * Reads `window` until the last two readings are steady (`isSteady`, within `floor`), looking from
 * the `minWindows`-th reading on (default: the second), or `maxWindows` readings.
 */
async function windowsUntilSteady(
  options: { minWindows?: number; maxWindows: number; floor?: number },
  window: () => Promise<number>,
): Promise<{ values: number[]; steady: boolean }> {
  const values: number[] = [];
  while (values.length < options.maxWindows) {
    values.push(await window());
    if (values.length >= (options.minWindows ?? 2) && isSteady(values, options.floor))
      return { values, steady: true };
  }
  return { values, steady: false };
}

/**
 * A warm-up, then `total` requests at a fixed paced rate: the CPU every process of `processes`
 * spent on them, and their latency from when each was due.
 */
export async function pacedMeasure(
  processes: Record<string, number>,
  options: OpenLoopOptions & { total: number },
): Promise<Measured> {
  await openLoop({ ...options, total: Math.min(500, Math.ceil(options.total / 4)) });
  const { result, cpuMs: spent } = await withCpu(processes, () => openLoop(options));
  return {
    operations: result.requests,
    cpuMs: spent,
    latency: latencyOf(result),
    failures: result.non_2xx + result.errors,
  };
}

/**
 * Several measurements of one shape as one: CPU and operations summed (so the ratio is of the
 * pooled totals), each latency percentile the median of the measurements'.
 */
export function pooled(measurements: Measured[]): Measured {
  const cpuMs: Record<string, number> = {};
  for (const measured of measurements)
    for (const [name, ms] of Object.entries(measured.cpuMs)) cpuMs[name] = (cpuMs[name] ?? 0) + ms;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  const latencies = measurements.flatMap((measured) =>
    measured.latency ? [measured.latency] : [],
  );
  return {
    operations: measurements.reduce((total, measured) => total + measured.operations, 0),
    cpuMs,
    latency:
      latencies.length > 0
        ? {
            p50_ms: median(latencies.map((latency) => latency.p50_ms)),
            p95_ms: median(latencies.map((latency) => latency.p95_ms)),
            p99_ms: median(latencies.map((latency) => latency.p99_ms)),
          }
        : undefined,
    failures: measurements.reduce((total, measured) => total + (measured.failures ?? 0), 0),
  };
}

/** Requests per second at saturation (autocannon, 20 connections): context, never a target. */
export async function saturation(
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<number> {
  const result = await new Promise<autocannon.Result>((resolve, reject) =>
    autocannon({ url, headers, duration: seconds, connections: 20 }, (error, out) =>
      error ? reject(error) : resolve(out),
    ),
  );
  return Math.round(result.requests.average);
}
