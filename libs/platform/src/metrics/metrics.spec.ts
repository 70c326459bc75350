import { waitFor } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { createMetrics, EVENT_LOOP_SAMPLE_MS, startMetricsServer } from './metrics.js';

describe('metrics server', () => {
  it('serves the registry, and refuses to start on a port in use instead of crashing later', async () => {
    const metrics = createMetrics('spec');
    const first = await startMetricsServer(metrics.registry, '127.0.0.1', 0);
    try {
      const text = await (await fetch(`http://127.0.0.1:${first.port}/metrics`)).text();
      expect(text).toContain('process_cpu_seconds_total');
      await expect(
        startMetricsServer(metrics.registry, '127.0.0.1', first.port),
      ).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
    } finally {
      await first.stop();
    }
  });

  it('samples the event loop every EVENT_LOOP_SAMPLE_MS, not 100 times a second: no interval is shorter than the period', async () => {
    const { registry } = createMetrics('spec');
    // Each collection reads and resets the monitor's histogram: poll until one has samples.
    const shortest = await waitFor(
      async () => {
        const metrics = await registry.getMetricsAsJSON();
        const min = metrics.find((m) => m.name === 'nodejs_eventloop_lag_min_seconds');
        const value = min?.values[0]?.value;
        return value !== undefined && value < 3600 ? value : undefined;
      },
      { what: 'a sampled event-loop interval', everyMs: 200 },
    );
    // libuv may run a timer up to 1 ms early (millisecond loop time); never later than it is due.
    expect(shortest).toBeGreaterThanOrEqual((EVENT_LOOP_SAMPLE_MS - 2) / 1000);
  });
});
