import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { User } from '@inventory/contracts/identity/v1/identity.js';
import { userChanged } from '@inventory/events';
import { startNatsServer, waitFor, type LocalServer } from '@inventory/local-infra';
import { connectNats, createLogger, encodeEvent } from '@inventory/platform';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserCache } from './user-cache.js';

const HOUR = 3_600_000;
const logger = createLogger({ service: 'test', level: 'silent' });

const user = (id: number, name: string): User => ({
  id,
  name,
  email: `${id}@example.test`,
  is_owner: false,
  permissions: [],
  two_factor_enabled: false,
  created_at: new Date(0),
});

/** ADR 0109: the gateway's user cache follows identity's events, and stops serving without NATS. */
describe('UserCache on a real NATS server', () => {
  let server: LocalServer;
  let dataDir: string;
  let nats: NatsConnection;
  let publisher: NatsConnection;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'user-cache-'));
    server = await startNatsServer({ dataDir });
    nats = await connectNats(server.url, 'gateway-test');
    publisher = await connectNats(server.url, 'identity-test');
  });
  afterAll(async () => {
    await publisher?.close().catch(() => undefined);
    await nats?.close().catch(() => undefined);
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Publishes the event as identity does, then a reply round trip on the same connection. */
  async function publishChange(tenantId: string, userId: number): Promise<void> {
    const { bytes } = encodeEvent(userChanged, {
      id: `${tenantId}-${userId}-${Math.random()}`,
      tenantId,
      payload: { user_id: userId, has_grants: false, is_owner: false, permissions: [] },
    });
    publisher.publish(userChanged.subject, bytes);
    await publisher.flush();
  }

  it('keeps a loaded user, drops exactly the changed one on the event, and reloads it', async () => {
    const cache = new UserCache(HOUR, logger);
    cache.listen(nats);
    try {
      await nats.flush(); // the subscription is registered with the server
      let loads = 0;
      const load = (id: number, name: string) => async () => {
        loads++;
        return user(id, name);
      };
      await cache.get('t1', 1, load(1, 'old'));
      await cache.get('t1', 2, load(2, 'other'));
      await cache.get('t2', 1, load(1, 'another tenant'));
      expect(cache.cached('t1', 1)?.name).toBe('old');
      expect(loads).toBe(3);

      await publishChange('t1', 1);
      await waitFor(() => cache.cached('t1', 1) === undefined, { what: 'the entry dropped' });
      expect(cache.cached('t1', 2)?.name).toBe('other');
      expect(cache.cached('t2', 1)?.name).toBe('another tenant');
      expect((await cache.get('t1', 1, load(1, 'new'))).name).toBe('new');
      expect(loads).toBe(4);
    } finally {
      cache.stop();
    }
  });

  it('does not keep a load that an event overtook, though it answers its caller', async () => {
    const cache = new UserCache(HOUR, logger);
    let release!: (value: User) => void;
    const pending = cache.get('t1', 7, () => new Promise<User>((resolve) => (release = resolve)));
    cache.invalidate('t1', 7);
    release(user(7, 'read before the change'));
    expect((await pending).name).toBe('read before the change');
    expect(cache.cached('t1', 7)).toBeUndefined();
  });

  it('never keeps "not found"', async () => {
    const cache = new UserCache(HOUR, logger);
    await expect(
      cache.get('t1', 9, () => Promise.reject(new Error('User not found.'))),
    ).rejects.toThrow('User not found.');
    expect(cache.cached('t1', 9)).toBeUndefined();
  });

  it('expires an entry after its TTL on the injected clock (a missed event)', async () => {
    let now = 1_000;
    const cache = new UserCache(5_000, logger, () => now);
    await cache.get('t1', 3, async () => user(3, 'kept'));
    now += 4_999;
    expect(cache.cached('t1', 3)?.name).toBe('kept');
    now += 1;
    expect(cache.cached('t1', 3)).toBeUndefined();
  });

  // Last: it stops the server.
  it('loads every request from identity while NATS is down, and starts empty after the reconnect', async () => {
    const cache = new UserCache(HOUR, logger);
    cache.listen(nats);
    try {
      await cache.get('t1', 5, async () => user(5, 'before the outage'));
      expect(cache.cached('t1', 5)).toBeDefined();

      await server.stop();
      await waitFor(() => !cache.serving, { what: 'the cache no longer serving' });
      expect(cache.cached('t1', 5)).toBeUndefined();
      let loads = 0;
      for (let i = 0; i < 3; i++)
        await cache.get('t1', 5, async () => {
          loads++;
          return user(5, 'during the outage');
        });
      expect(loads).toBe(3); // nothing kept while events cannot arrive

      server = await startNatsServer({ dataDir, port: server.port });
      await waitFor(() => cache.serving, { what: 'the cache serving again after the reconnect' });
      expect(cache.cached('t1', 5)).toBeUndefined();
      await cache.get('t1', 5, async () => user(5, 'after the outage'));
      expect(cache.cached('t1', 5)?.name).toBe('after the outage');
    } finally {
      cache.stop();
    }
  });
});
