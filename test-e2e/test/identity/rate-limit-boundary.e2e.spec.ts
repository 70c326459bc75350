import { waitFor } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  createUserWithToken,
  loginSession,
  startSystem,
  type HttpResponse,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

/** A platform limit small enough to cross: 5 in any minute. */
const LIMIT = 5;
const WINDOW_MS = 60_000;

/**
 * After a burst of LIMIT requests the next may pass a minute after the burst's first, so
 * Retry-After is a minute less the time the burst took, in whole seconds up.
 */
function expectRetryAfter(refused: HttpResponse, burstStartedAt: number, refusedAt: number) {
  const retryAfter = Number(refused.headers['retry-after']);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
  expect(retryAfter).toBeGreaterThanOrEqual(
    Math.ceil((WINDOW_MS - (refusedAt - burstStartedAt)) / 1000),
  );
  expect(refused.body).toEqual({
    message: 'Too Many Attempts.',
    retry_after_seconds: retryAfter,
  });
}

describe('the platform rate limit at its boundary', () => {
  let system: RunningSystem;
  let tenant: TenantFixture;

  beforeAll(async () => {
    system = await startSystem({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
    tenant = await createTenantWithToken(system, { slug: 'rate-boundary' });
  });
  afterAll(() => system?.stop());

  it('no more than LIMIT requests pass in the minute after the first, asked once a second', async () => {
    const token = await createUserWithToken(system, tenant.tenant);
    const startedAt = Date.now();
    const admittedAt: number[] = [];
    // Ask once a second until a request passes after the burst: with a window that is a minute
    // after the first; a token bucket let one through every 12 s (9 in the first minute).
    await waitFor(
      async () => {
        const sentAt = Date.now();
        const response = await token.request('GET', '/api/user');
        expect([200, 429]).toContain(response.status);
        if (response.status === 200) admittedAt.push(sentAt);
        return admittedAt.length > LIMIT;
      },
      { everyMs: 1_000, timeoutMs: WINDOW_MS + 60_000, what: 'a request after the minute' },
    );
    // Sent times are no later than the limiter counted each request.
    const inFirstMinute = admittedAt.filter((at) => at < startedAt + WINDOW_MS);
    expect(inFirstMinute).toHaveLength(LIMIT);
    expect(admittedAt[LIMIT]! - admittedAt[0]!).toBeGreaterThanOrEqual(WINDOW_MS - 1_000);
  }, 180_000);

  it('a token gets exactly LIMIT requests, then 429 with the window Retry-After', async () => {
    const startedAt = Date.now();
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const response = await tenant.request('GET', '/api/user');
      statuses.push(response.status);
      remaining.push(String(response.headers['x-ratelimit-remaining']));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const refused = await tenant.request('GET', '/api/user');
    expect(refused.status).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expectRetryAfter(refused, startedAt, Date.now());
  });

  it("a session user gets exactly LIMIT requests, then 429, on a budget of the user's own", async () => {
    const session = await loginSession(tenant, system.gatewayUrl);
    const startedAt = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++)
      statuses.push((await session.request('GET', '/api/user')).status);
    // The token above spent its budget; the session's is separate and whole.
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const refused = await session.request('GET', '/api/user');
    expect(refused.status).toBe(429);
    expectRetryAfter(refused, startedAt, Date.now());
    // Per user, not per tenant: another user of the same tenant still has a whole budget.
    const colleague = await loginSession(
      await createUserWithToken(system, tenant.tenant),
      system.gatewayUrl,
    );
    const theirs: number[] = [];
    for (let i = 0; i <= LIMIT; i++)
      theirs.push((await colleague.request('GET', '/api/user')).status);
    expect(theirs).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
