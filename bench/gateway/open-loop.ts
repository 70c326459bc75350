import { Agent, request } from 'node:http';
import { percentile } from './report.js';

export interface OpenLoopOptions {
  url: string;
  headers: Record<string, string>;
  ratePerSecond: number;
  durationSeconds: number;
  /** Most requests in flight; a request due while all are busy waits, and its wait counts. */
  maxInFlight?: number;
}

export interface OpenLoopResult {
  requested_req_per_s: number;
  achieved_req_per_s: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
  non_2xx: number;
  errors: number;
}

/**
 * An open-loop, constant-rate load: request i is due at start + i / rate, sent
 * evenly spaced (not in bursts), and its latency runs from when it was *due*,
 * not from when it was sent. A server that falls behind therefore shows its
 * queueing delay instead of hiding it (no coordinated omission), which is how a
 * "p99 at N requests/s" target is meant.
 */
export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxInFlight ?? 64 });
  const total = Math.round(options.ratePerSecond * options.durationSeconds);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  const start = performance.now();

  const send = (dueAt: number) =>
    new Promise<void>((resolve) => {
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          headers: options.headers,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - dueAt);
            if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) non2xx++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });

  const pending: Array<Promise<void>> = [];
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - start;
      while (sent < total && (sent * 1000) / options.ratePerSecond <= elapsed) {
        pending.push(send(start + (sent * 1000) / options.ratePerSecond));
        sent++;
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const ms = (value: number) => Math.round(value * 100) / 100;
  return {
    requested_req_per_s: options.ratePerSecond,
    achieved_req_per_s: Math.round(latencies.length / seconds),
    p50_ms: ms(percentile(latencies, 50)),
    p90_ms: ms(percentile(latencies, 90)),
    p99_ms: ms(percentile(latencies, 99)),
    max_ms: ms(latencies.at(-1) ?? 0),
    non_2xx: non2xx,
    errors,
  };
}
