import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRangeStart, freePort } from './ports.js';

describe('freePort', () => {
  it('chooses ports below the ephemeral range, which outgoing connections never take', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralRangeStart());
    }
  });

  it('answers a port a server can then listen on', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    expect((server.address() as { port: number }).port).toBe(port);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
