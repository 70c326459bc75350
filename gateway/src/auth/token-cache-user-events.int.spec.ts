import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userChanged } from '@inventory/events';
import { startNatsServer, waitFor, type LocalServer } from '@inventory/local-infra';
import { connectNats, createLogger, encodeEvent, runWithContext } from '@inventory/platform';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityAdapter, type IdentityAdapter } from '../adapters/identity.js';
import { startFakeIdentity } from './fake-identity.test-util.js';
import { TokenCache } from './token-cache.js';

const HOUR = 3_600_000;

/** ADR 0109: a token record carries its user's permissions, so the user's change drops it. */
describe('TokenCache on identity.user.changed', () => {
  let server: LocalServer;
  let dataDir: string;
  let nats: NatsConnection;
  let identity: Awaited<ReturnType<typeof startFakeIdentity>>;
  let adapter: IdentityAdapter;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'token-cache-user-'));
    server = await startNatsServer({ dataDir });
    nats = await connectNats(server.url, 'gateway-test');
    identity = await startFakeIdentity();
    adapter = createIdentityAdapter(identity.address, { deadlineMs: 60_000 });
  });
  afterAll(async () => {
    adapter?.close();
    identity?.stop();
    await nats?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("drops every token of the changed user, and only those, so the next check reads the user's new permissions", async () => {
    const tokens = new TokenCache(adapter, HOUR, createLogger({ service: 't', level: 'silent' }));
    tokens.listen(nats);
    await nats.flush();
    const get = (id: number) =>
      runWithContext({ requestId: 'r', tenantId: 't1' }, () => tokens.get('t1', id));
    try {
      identity.permissions.set(1, ['orders.view']);
      await get(1);
      await get(2);
      await get(100); // another user's
      const loadsBefore = identity.loads();
      expect(tokens.cached('t1', 1)?.record.user_permissions).toEqual(['orders.view']);

      identity.permissions.set(1, []);
      const { bytes } = encodeEvent(userChanged, {
        tenantId: 't1',
        payload: { user_id: 1, has_grants: true, is_owner: false, permissions: [] },
      });
      nats.publish(userChanged.subject, bytes);
      await waitFor(
        () => tokens.cached('t1', 1) === undefined && tokens.cached('t1', 2) === undefined,
        { what: "the user's tokens dropped" },
      );
      expect(tokens.cached('t1', 100)).toBeDefined();
      expect((await get(1))?.record.user_permissions).toEqual([]);
      expect(identity.loads()).toBe(loadsBefore + 1);
    } finally {
      tokens.stop();
    }
  });
});
