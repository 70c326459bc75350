import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer, type LocalServer } from '@inventory/local-infra';
import { connectRedis, createLogger, type Redis } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../http/http-error.js';
import { LoginThrottle } from './login-throttle.js';

/** Failed-login throttling (ADR 0112); logins are not held by a frozen Redis (the route still checks credentials). */
describe('LoginThrottle against a real Redis, then a frozen one (SIGSTOP)', () => {
  let server: LocalServer;
  let redis: Redis;
  let dataDir: string;
  let frozen = false;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'login-throttle-frozen-'));
    server = await startRedisServer({ dataDir });
    redis = await connectRedis(server.url, undefined, { commandTimeoutMs: 300 });
  });
  afterAll(async () => {
    if (frozen) process.kill(server.child.pid!, 'SIGCONT');
    redis?.disconnect();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts an address per tenant, in a bucket that drains: a busy office is slowed on one tenant, never locked out of all', async () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle(
      redis,
      // 4 failures per address and tenant, draining one per 15 s.
      { maxPerAccount: 1_000, maxPerIp: 4, windowSeconds: 60, now: () => now },
      createLogger({ service: 'test', level: 'silent' }),
    );
    const office = '198.51.100.7';
    for (let i = 0; i < 4; i++) {
      expect(await throttle.blockedFor('tenant-a', `user${i}@a.test`, office)).toBe(0);
      await throttle.recordFailure('tenant-a', `user${i}@a.test`, office);
    }
    // Blocked on tenant A, for about one drained failure (15 s), not the whole window.
    expect(await throttle.blockedFor('tenant-a', 'someone@a.test', office)).toBe(15);
    // Another tenant's users behind the same address are not affected.
    expect(await throttle.blockedFor('tenant-b', 'someone@b.test', office)).toBe(0);

    now += 15_000;
    expect(await throttle.blockedFor('tenant-a', 'someone@a.test', office)).toBe(0);
    await throttle.recordFailure('tenant-a', 'someone@a.test', office);
    expect(await throttle.blockedFor('tenant-a', 'other@a.test', office)).toBe(15);
    now += 60_000;
    // Fully drained: the whole allowance is back.
    for (let i = 0; i < 3; i++) await throttle.recordFailure('tenant-a', `x${i}@a.test`, office);
    expect(await throttle.blockedFor('tenant-a', 'other@a.test', office)).toBe(0);
  });

  it('still blocks one account after its failures, from any address, for the rest of the window', async () => {
    const throttle = new LoginThrottle(
      redis,
      { maxPerAccount: 2, maxPerIp: 100, windowSeconds: 60 },
      createLogger({ service: 'test', level: 'silent' }),
    );
    await throttle.recordFailure('tenant-c', 'ann@c.test', '203.0.113.1');
    await throttle.recordFailure('tenant-c', 'ann@c.test', '203.0.113.2');
    const wait = await throttle.blockedFor('tenant-c', 'ANN@c.test ', '203.0.113.3');
    expect(wait).toBeGreaterThan(55);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await throttle.blockedFor('tenant-c', 'bob@c.test', '203.0.113.3')).toBe(0);
  });

  it("keeps a tenant's two throttle keys in one Redis Cluster slot (the tenant is their hash tag)", async () => {
    const throttle = new LoginThrottle(
      redis,
      { maxPerAccount: 5, maxPerIp: 50, windowSeconds: 60 },
      createLogger({ service: 'test', level: 'silent' }),
    );
    await throttle.recordFailure('tenant-slot', 'someone@slot.test', '203.0.113.9');
    const written = await redis.keys('login:fail:*tenant-slot*');
    expect(written).toHaveLength(2);
    // One MULTI reads and writes both; a cluster refuses it unless their hash tags agree.
    for (const key of written) expect(/\{([^}]*)\}/.exec(key)?.[1]).toBe('tenant-slot');
  });

  it('does not throttle while Redis is frozen, probes it one call at a time, and counts again after SIGCONT', async () => {
    const throttle = new LoginThrottle(
      redis,
      { maxPerAccount: 2, maxPerIp: 100, windowSeconds: 60 },
      createLogger({ service: 'test', level: 'silent' }),
    );
    const attempt = () => throttle.blockedFor('t1', 'a@example.test', '10.0.0.1');
    await throttle.recordFailure('t1', 'a@example.test', '10.0.0.1');
    await throttle.recordFailure('t1', 'a@example.test', '10.0.0.1');
    expect(await attempt()).toBeGreaterThan(0);

    process.kill(server.child.pid!, 'SIGSTOP');
    frozen = true;
    // The first read waits for the command timeout; the throttle then lets the login be checked.
    expect(await attempt()).toBe(0);
    const multi = vi.spyOn(redis, 'multi');
    expect(await Promise.all(Array.from({ length: 5 }, attempt))).toEqual([0, 0, 0, 0, 0]);
    expect(multi).toHaveBeenCalledTimes(1);
    multi.mockRestore();

    process.kill(server.child.pid!, 'SIGCONT');
    frozen = false;
    let blocked = await attempt();
    const deadline = Date.now() + 10_000;
    while (blocked === 0 && Date.now() < deadline) blocked = await attempt();
    // The failures recorded before the freeze still count.
    expect(blocked).toBeGreaterThan(0);
  });

  it('refuses logins with 503 once Redis has failed for longer than the fail-open window', async () => {
    const throttle = new LoginThrottle(
      redis,
      { maxPerAccount: 5, maxPerIp: 100, windowSeconds: 60, failOpenMs: 0 },
      createLogger({ service: 'test', level: 'silent' }),
    );
    const attempt = () => throttle.blockedFor('t2', 'b@example.test', '10.0.0.2');
    process.kill(server.child.pid!, 'SIGSTOP');
    frozen = true;
    let outcome: unknown = await attempt().catch((error: unknown) => error);
    const deadline = Date.now() + 10_000;
    while (typeof outcome === 'number' && Date.now() < deadline)
      outcome = await attempt().catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(HttpError);
    expect((outcome as HttpError).statusCode).toBe(503);
    expect((outcome as HttpError).body).toEqual({
      message: 'The service is temporarily unavailable. Try again shortly.',
      code: 'rate_limiter_unavailable',
    });

    process.kill(server.child.pid!, 'SIGCONT');
    frozen = false;
    let after: unknown = await attempt().catch((error: unknown) => error);
    while (typeof after !== 'number' && Date.now() < deadline + 10_000)
      after = await attempt().catch((error: unknown) => error);
    expect(after).toBe(0);
  });
});
