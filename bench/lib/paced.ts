import { Agent, request } from 'node:http';
import { percentile } from './percentile.js';

/** One request of a paced load: what to send for request number `i`. */
export interface PacedRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface OpenLoopOptions {
  url: string;
  headers: Record<string, string>;
  ratePerSecond: number;
  /** How many requests to send; or `durationSeconds` of them at the rate. */
  total?: number;
  durationSeconds?: number;
  /** Varies a request by its number (a fresh body, a signature); the url and headers otherwise. */
  build?: (i: number) => PacedRequest;
  /** Most requests in flight; a request due while all are busy waits, and its wait counts. */
  maxInFlight?: number;
}

export interface OpenLoopResult {
  requested_req_per_s: number;
  achieved_req_per_s: number;
  requests: number;
  p50_ms: number;
  p90_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  non_2xx: number;
  errors: number;
}

export interface PacedCalls {
  /** Latency of each completed call from when it was due, ascending. */
  latencies: number[];
  failures: number;
  seconds: number;
}

/**
 * Calls `call(i)` for i in [0, total), call i due at start + i / rate, evenly spaced (not in
 * bursts) and without waiting for earlier calls. Latency runs from when a call was *due*, not
 * from when it was sent, so a system that falls behind shows its queueing delay instead of
 * hiding it (no coordinated omission), which is how a "p99 at N requests/s" target is meant.
 * A call resolves `false` (or rejects) when it failed.
 */
export async function pacedCalls(
  ratePerSecond: number,
  total: number,
  call: (i: number) => Promise<boolean>,
): Promise<PacedCalls> {
  const latencies: number[] = [];
  let failures = 0;
  let sent = 0;
  const start = performance.now();
  const pending: Array<Promise<void>> = [];
  const one = async (i: number, dueAt: number) => {
    const ok = await call(i).catch(() => false);
    latencies.push(performance.now() - dueAt);
    if (!ok) failures++;
  };
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - start;
      while (sent < total && (sent * 1000) / ratePerSecond <= elapsed) {
        pending.push(one(sent, start + (sent * 1000) / ratePerSecond));
        sent++;
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  return { latencies, failures, seconds: (performance.now() - start) / 1000 };
}

/** An open-loop HTTP load at a constant rate (see `pacedCalls`), one keep-alive pool. */
export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxInFlight ?? 64 });
  const total =
    options.total ?? Math.round(options.ratePerSecond * (options.durationSeconds ?? 10));
  let non2xx = 0;
  let errors = 0;
  const send = (i: number) =>
    new Promise<boolean>((resolve) => {
      const built = options.build?.(i) ?? {};
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: built.method ?? 'GET',
          path: built.path ?? `${target.pathname}${target.search}`,
          headers: { ...options.headers, ...built.headers },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            const ok = (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300;
            if (!ok) non2xx++;
            resolve(ok);
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve(false);
      });
      req.end(built.body);
    });
  const { latencies, seconds } = await pacedCalls(options.ratePerSecond, total, send);
  agent.destroy();
  const ms = (value: number) => Math.round(value * 100) / 100;
  return {
    requested_req_per_s: options.ratePerSecond,
    achieved_req_per_s: Math.round(latencies.length / seconds),
    requests: latencies.length - errors,
    p50_ms: ms(percentile(latencies, 50)),
    p90_ms: ms(percentile(latencies, 90)),
    p95_ms: ms(percentile(latencies, 95)),
    p99_ms: ms(percentile(latencies, 99)),
    max_ms: ms(latencies.at(-1) ?? 0),
    non_2xx: non2xx,
    errors,
  };
}
