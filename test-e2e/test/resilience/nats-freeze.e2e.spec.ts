import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayHandle } from '@inventory/gateway';
import { startNatsServer, type LocalServer } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall, startSecondGateway, startSystem, type RunningSystem } from '../../src/index.js';

/**
 * A frozen NATS (SIGSTOP: the socket stays open, nothing answers) is a NATS that is down: the
 * gateway's readiness reports it within about a second instead of believing the open socket.
 * A gateway on its own nats-server, frozen and thawed by the test.
 */
describe('gateway readiness while its NATS is frozen', () => {
  let system: RunningSystem;
  let gateway: GatewayHandle;
  let nats: LocalServer;
  let dataDir: string;
  let frozen = false;

  beforeAll(async () => {
    system = await startSystem();
    dataDir = mkdtempSync(join(tmpdir(), 'nats-freeze-'));
    nats = await startNatsServer({ dataDir });
    gateway = await startSecondGateway(system, { NATS_URL: nats.url });
  });
  afterAll(async () => {
    if (frozen) process.kill(nats.child.pid!, 'SIGCONT');
    await gateway?.stop();
    await nats?.stop();
    await system?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const readyz = () => httpCall(gateway.url, 'GET', '/readyz');

  it('is not ready while NATS answers nothing, and ready again once it does', async () => {
    const before = await readyz();
    expect(before.status).toBe(200);
    expect(before.body.checks.nats).toBe(true);

    process.kill(nats.child.pid!, 'SIGSTOP');
    frozen = true;
    await expect
      .poll(async () => (await readyz()).status, { timeout: 30_000, interval: 200 })
      .toBe(503);
    const during = await readyz();
    expect(during.body).toMatchObject({ status: 'not_ready', checks: { nats: false } });

    process.kill(nats.child.pid!, 'SIGCONT');
    frozen = false;
    await expect
      .poll(async () => (await readyz()).status, { timeout: 30_000, interval: 200 })
      .toBe(200);
    expect((await readyz()).body.checks.nats).toBe(true);
  });
});
