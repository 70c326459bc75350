import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { GatewayHandle } from '@inventory/gateway';
import { eventually, startRedisServer, type LocalServer } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  loginSession,
  startSecondGateway,
  startSystem,
  type RunningSystem,
  type SessionFixture,
  type TenantFixture,
} from '../../src/index.js';

/**
 * Two gateways on the same Redis: one whose fail-open window no run outlasts (every request
 * while Redis is down falls inside it, however slow the machine), and one whose window is over
 * after its first failure (so it answers 503 without the test waiting for time to pass).
 */
const FAIL_OPEN_MS = 60 * 60_000;
const SHORT_FAIL_OPEN_MS = 1;

interface LogLine {
  level: number;
  msg: string;
  failing_for_ms?: number;
  fail_open_ms?: number;
  outage_ms?: number;
}

/**
 * DESIGN §6 / ADR 0103: Redis unavailable → rate limiting fails open for a
 * bounded time and logs it, then answers 503; authentication never fails open.
 * A gateway on its own real redis-server, which the test stops and restarts.
 */
// The steps of one outage, in order (Redis up, down inside the window, past it, back).
describe('gateway while its Redis is down', { shuffle: false }, () => {
  let system: RunningSystem;
  let gateway: GatewayHandle;
  let redis: LocalServer | undefined;
  let dataDir: string;
  let fixture: TenantFixture;
  let session: SessionFixture;
  let shortGateway: GatewayHandle;
  let shortFixture: TenantFixture;
  let shortSession: SessionFixture;
  /** When the first request without Redis came back: the outage had begun by then. */
  let failingBy = 0;
  const lines: LogLine[] = [];
  const logged = (msg: string) => lines.filter((line) => line.msg.startsWith(msg));
  const shortLines: LogLine[] = [];
  const capture = (into: LogLine[]) =>
    new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n').filter(Boolean))
          into.push(JSON.parse(text) as LogLine);
        done();
      },
    });

  beforeAll(async () => {
    system = await startSystem();
    dataDir = mkdtempSync(join(tmpdir(), 'redis-outage-'));
    redis = await startRedisServer({ dataDir });
    gateway = await startSecondGateway(
      system,
      { REDIS_URL: redis.url, RATE_LIMIT_FAIL_OPEN_MS: String(FAIL_OPEN_MS), LOG_LEVEL: 'info' },
      { logDestination: capture(lines) },
    );
    fixture = await createTenantWithToken(system, { gatewayUrl: gateway.url });
    session = await loginSession(fixture, gateway.url);
    shortGateway = await startSecondGateway(
      system,
      {
        REDIS_URL: redis.url,
        RATE_LIMIT_FAIL_OPEN_MS: String(SHORT_FAIL_OPEN_MS),
        LOG_LEVEL: 'info',
      },
      { logDestination: capture(shortLines) },
    );
    shortFixture = await createTenantWithToken(system, { gatewayUrl: shortGateway.url });
    shortSession = await loginSession(shortFixture, shortGateway.url);
  });
  afterAll(async () => {
    await gateway?.stop();
    await shortGateway?.stop();
    await redis?.stop();
    await system?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const badToken = () => fixture.withToken(`${fixture.tokenId}|${'x'.repeat(48)}`);

  it('limits normally while Redis is up', async () => {
    const response = await fixture.request('GET', '/api/user');
    expect(response.status).toBe(200);
    expect(response.headers['x-ratelimit-limit']).toBe('1000');
    expect(response.headers['x-ratelimit-remaining']).toBe('999');
  });

  it('fails open (no rate headers) inside the window and logs a warning, while bad credentials stay 401', async () => {
    await redis!.stop();
    const passed = await fixture.request('GET', '/api/user');
    failingBy = Date.now();
    expect(passed.status).toBe(200);
    expect(passed.body.data.id).toBe(fixture.user.id);
    expect(passed.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await session.request('GET', '/api/user')).status).toBe(200);

    // Authentication does not depend on Redis and never fails open.
    const wrongSecret = await badToken()('GET', '/api/user');
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.errors.token[0].code).toBe('Unauthorized');
    expect((await fixture.withToken('999999|nope')('GET', '/api/user')).status).toBe(401);
    expect((await fixture.anonymous('GET', '/api/user')).status).toBe(401);
    const badCookie = await fixture.anonymous('GET', '/api/user', undefined, {
      cookie: 'inventory_session=forged',
    });
    expect(badCookie.status).toBe(401);

    const warnings = logged('rate limiter cannot reach Redis; failing open');
    expect(warnings).toHaveLength(1); // at most one every 10 s, not one per request
    expect(warnings[0]).toMatchObject({ level: 40, fail_open_ms: FAIL_OPEN_MS });
    expect(warnings[0]!.failing_for_ms).toBe(0); // the first failure starts the outage
  });

  it('past the window answers 503 (logged once) and still 401 for bad credentials', async () => {
    // Its first failure opens the 1 ms window; once past it, every limited request is 503.
    const refused = await eventually(async () => {
      const response = await shortFixture.request('GET', '/api/user');
      expect(response.status).toBe(503);
      return response;
    }, 'the short window to close');
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body).toEqual({
      message: 'The service is temporarily unavailable. Try again shortly.',
      code: 'rate_limiter_unavailable',
    });
    expect((await shortSession.request('GET', '/api/user')).status).toBe(503);
    // A bad credential is refused before the limiter: never 503, never 200.
    const badShortToken = shortFixture.withToken(`${shortFixture.tokenId}|${'x'.repeat(48)}`);
    expect((await badShortToken('GET', '/api/user')).status).toBe(401);
    expect((await shortFixture.anonymous('GET', '/api/user')).status).toBe(401);

    const errors = shortLines.filter((line) =>
      line.msg.startsWith('rate limiter still cannot reach Redis after the fail-open window'),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ level: 50, fail_open_ms: SHORT_FAIL_OPEN_MS });
    expect(errors[0]!.failing_for_ms).toBeGreaterThan(SHORT_FAIL_OPEN_MS);
    // The long window's gateway is still inside it.
    expect((await fixture.request('GET', '/api/user')).status).toBe(200);
    expect(logged('rate limiter still cannot reach Redis')).toEqual([]);
  });

  it('limits normally again once Redis is back, and logs the recovery', async () => {
    const restartedAt = Date.now();
    redis = await startRedisServer({ dataDir, port: redis!.port });
    // ioredis reconnects with a back-off of at most 2 s; until then requests still fail open.
    const response = await eventually(async () => {
      const limited = await fixture.request('GET', '/api/user');
      expect(limited.headers['x-ratelimit-limit']).toBe('1000');
      return limited;
    }, 'the limiter back on Redis');
    expect(response.status).toBe(200);
    const recovered = logged('rate limiter reaches Redis again');
    expect(recovered).toHaveLength(1);
    // The outage began before the first request without Redis came back, and lasted past the restart.
    expect(recovered[0]!.outage_ms).toBeGreaterThanOrEqual(restartedAt - failingBy);
  });
});
