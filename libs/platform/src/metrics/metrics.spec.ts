import { describe, expect, it } from 'vitest';
import { createMetrics, startMetricsServer } from './metrics.js';

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
});
