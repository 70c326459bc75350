import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { GatewayHandle } from '@inventory/gateway';
import { startRedisServer, type LocalServer, eventually } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  httpCall,
  loginSession,
  startSecondGateway,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

/**
 * Issue #18 item 5: a frozen Redis (SIGSTOP: the socket stays open, nothing answers) must not
 * hang requests, /readyz or login. Commands time out (platform connectRedis), rate limiting
 * fails open for a bounded time and logs it, authentication never fails open, readiness says
 * Redis is down. A gateway on its own real redis-server, frozen and thawed by the test.
 */
describe('gateway while its Redis is frozen (SIGSTOP)', () => {
  let system: RunningSystem;
  let gateway: GatewayHandle;
  let redis: LocalServer;
  let dataDir: string;
  let fixture: TenantFixture;
  const lines: Array<{ level: number; msg: string }> = [];
  let frozen = false;
  const freeze = () => {
    process.kill(redis.child.pid!, 'SIGSTOP');
    frozen = true;
  };
  const thaw = () => {
    if (frozen) process.kill(redis.child.pid!, 'SIGCONT');
    frozen = false;
  };

  beforeAll(async () => {
    system = await startSystem();
    dataDir = mkdtempSync(join(tmpdir(), 'redis-freeze-'));
    redis = await startRedisServer({ dataDir });
    const capture = new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n').filter(Boolean))
          lines.push(JSON.parse(text) as { level: number; msg: string });
        done();
      },
    });
    gateway = await startSecondGateway(
      system,
      // A window long enough to cover the whole frozen phase of this test.
      { REDIS_URL: redis.url, RATE_LIMIT_FAIL_OPEN_MS: '600000', LOG_LEVEL: 'info' },
      { logDestination: capture },
    );
    fixture = await createTenantWithToken(system, { gatewayUrl: gateway.url });
  });
  afterAll(async () => {
    thaw();
    await gateway?.stop();
    await redis?.stop();
    await system?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers requests, readiness and login while Redis is frozen, then limits again after SIGCONT', async () => {
    const before = await fixture.request('GET', '/api/user');
    expect(before.headers['x-ratelimit-limit']).toBe('1000');
    freeze();

    // Requests are served (fail open: no rate headers), not held until Redis returns.
    const served = await Promise.all(
      Array.from({ length: 5 }, () => fixture.request('GET', '/api/user')),
    );
    for (const response of served) {
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect(lines.some((line) => line.msg.startsWith('rate limiter cannot reach Redis'))).toBe(true);

    // Authentication never fails open.
    expect(
      (await fixture.withToken(`${fixture.tokenId}|${'x'.repeat(48)}`)('GET', '/api/user')).status,
    ).toBe(401);
    expect((await fixture.anonymous('GET', '/api/user')).status).toBe(401);

    // Readiness answers, and says Redis is down.
    const ready = await httpCall(gateway.url, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'not_ready', checks: { redis: false } });

    // Login answers: right password signs in, a wrong one is still refused.
    const session = await loginSession(fixture, gateway.url);
    expect((await session.request('GET', '/api/user')).status).toBe(200);
    const wrong = await httpCall(gateway.url, 'POST', '/auth/login', {
      host: fixture.host,
      body: { email: fixture.user.email, password: 'not-the-password' },
    });
    expect(wrong.status).toBe(422);

    thaw();
    const after = await eventually(async () => {
      const limited = await fixture.request('GET', '/api/user');
      expect(limited.headers['x-ratelimit-limit']).toBe('1000');
      return limited;
    }, 'the limiter back on Redis');
    expect(after.status).toBe(200);
    expect((await httpCall(gateway.url, 'GET', '/readyz')).status).toBe(200);
  });
});
