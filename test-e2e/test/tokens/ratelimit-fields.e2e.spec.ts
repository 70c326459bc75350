import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  createUserWithToken,
  loginSession,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

/** `"<policy>";<key>=<integer>;…` as an object: the draft's Structured Field Item, read strictly. */
function item(value: unknown): { policy: string; [key: string]: string | number } {
  const match = /^"([a-z]+)"((?:;[a-z]+=\d+)+)$/.exec(String(value));
  expect(match, String(value)).not.toBeNull();
  const parameters = match![2]!
    .slice(1)
    .split(';')
    .map((pair) => pair.split('=') as [string, string]);
  return {
    policy: match![1]!,
    ...Object.fromEntries(parameters.map(([key, number]) => [key, Number(number)])),
  };
}

describe('IETF RateLimit-Policy and RateLimit beside X-RateLimit-* (ADR 0117)', () => {
  let system: RunningSystem;
  let owner: TenantFixture;

  beforeAll(async () => {
    system = await startSystem();
    owner = await createTenantWithToken(system);
  });
  afterAll(() => system?.stop());

  it('a token: the same budget in both forms, counting down, and on the 429 with Retry-After', async () => {
    const limited = await createUserWithToken(system, owner.tenant, {
      token: { rateLimitPerMinute: 3 },
    });
    const seen = [];
    for (let n = 0; n < 3; n++) {
      const answer = await limited.request('GET', '/api/user');
      expect(answer.status).toBe(200);
      expect(item(answer.headers['ratelimit-policy'])).toEqual({ policy: 'token', q: 3, w: 60 });
      const now = item(answer.headers.ratelimit);
      expect(now.policy).toBe('token');
      expect(now.r).toBe(Number(answer.headers['x-ratelimit-remaining']));
      expect(now.t).toBeGreaterThanOrEqual(0);
      expect(now.t).toBeLessThanOrEqual(60);
      seen.push(now.r);
    }
    expect(seen).toEqual([2, 1, 0]);

    const refused = await limited.request('GET', '/api/user');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    expect(item(refused.headers['ratelimit-policy'])).toEqual({ policy: 'token', q: 3, w: 60 });
    expect(item(refused.headers.ratelimit)).toMatchObject({ policy: 'token', r: 0 });
  });

  it('a web session and the public leak report name their own policies', async () => {
    const session = await loginSession(owner, system.gatewayUrl);
    const viaSession = await session.request('GET', '/api/user');
    expect(item(viaSession.headers['ratelimit-policy'])).toEqual({
      policy: 'session',
      q: 1000,
      w: 60,
    });
    expect(item(viaSession.headers.ratelimit)).toMatchObject({ policy: 'session', r: 999 });

    const report = await owner.anonymous('POST', '/api/credentials/revoke', {
      credentials: ['1|x'],
    });
    expect(report.status).toBe(202);
    expect(item(report.headers['ratelimit-policy'])).toEqual({ policy: 'address', q: 10, w: 60 });
    expect(item(report.headers.ratelimit)).toMatchObject({ policy: 'address', r: 9 });
  });

  it('answers that pass no limiter carry neither form', async () => {
    const health = await owner.anonymous('GET', '/healthz');
    expect(health.headers).not.toHaveProperty('ratelimit');
    expect(health.headers).not.toHaveProperty('ratelimit-policy');
    expect(health.headers).not.toHaveProperty('x-ratelimit-limit');
  });
});
