import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderSimHandle } from '../src/index.js';
import { KEY, OTHER_KEY, admin, call, items, startSim } from './helpers.js';

let sim: ProviderSimHandle | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

describe('rate limit', () => {
  it('answers the 4th request of a key within a second with 429, other keys unaffected', async () => {
    // A frozen clock: the four requests fall in one window however slowly they are sent.
    const frozen = new Date('2026-01-01T00:00:00Z');
    sim = await startSim({ rateLimitPerSecond: 3, now: () => frozen });
    const s = sim;
    const first = await Promise.all([1, 2, 3].map(() => call(s, 'getquota', {}, KEY)));
    expect(first.map((r) => r.status)).toEqual([200, 200, 200]);
    const fourth = await fetch(`${s.url}/track/v2.2/getquota`, {
      method: 'POST',
      headers: { '17token': KEY },
    });
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBe('1');
    expect(((await fourth.json()) as { code: number }).code).toBe(-18010014);
    const other = await call(s, 'getquota', {}, OTHER_KEY);
    expect(other.status).toBe(200);
    expect(other.json.code).toBe(0);
  });

  it('lets the key through again after the window', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    sim = await startSim({ rateLimitPerSecond: 1, now: () => new Date(now) });
    expect((await call(sim, 'getquota', {})).status).toBe(200);
    now += 999;
    expect((await call(sim, 'getquota', {})).status).toBe(429);
    now += 1;
    expect((await call(sim, 'getquota', {})).status).toBe(200);
  });
});

describe('authentication', () => {
  const invalid = {
    code: -18010002,
    data: { errors: [{ code: -18010002, message: expect.any(String) }] },
  };

  it('answers a wrong or missing key with HTTP 200 and -18010002 by default', async () => {
    sim = await startSim();
    const wrong = await call(sim, 'register', items('ABCDE12345'), 'wrong_key_000');
    expect(wrong.status).toBe(200);
    expect(wrong.json).toEqual(invalid);
    const missing = await call(sim, 'gettrackinfo', items('ABCDE12345'), null);
    expect(missing.status).toBe(200);
    expect(missing.json).toEqual(invalid);
  });

  it('answers with HTTP 401 after setAuthStyle("http401") or the admin switch', async () => {
    sim = await startSim();
    sim.setAuthStyle('http401');
    const wrong = await call(sim, 'getquota', {}, 'wrong_key_000');
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual(invalid);

    expect((await admin(sim, 'POST', '/auth-style', { style: 'http200' })).status).toBe(200);
    expect((await call(sim, 'getquota', {}, 'wrong_key_000')).status).toBe(200);
    await admin(sim, 'POST', '/auth-style', { style: 'http401' });
    expect((await call(sim, 'getquota', {}, 'wrong_key_000')).status).toBe(401);
    expect((await call(sim, 'getquota', {}, KEY)).status).toBe(200);
  });

  it('alternates 200 and 401 in the alternate style', async () => {
    sim = await startSim();
    expect((await call(sim, 'getquota', {}, 'wrong_key_000')).status).toBe(200);
    sim.setAuthStyle('alternate'); // restarts the sequence
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await call(sim, 'getquota', {}, 'wrong_key_000')).status);
    expect(statuses).toEqual([200, 401, 200, 401]);
  });

  it('accepts keys added at runtime through the admin API', async () => {
    sim = await startSim();
    expect((await call(sim, 'getquota', {}, 'late_key_123')).json.code).toBe(-18010002);
    const added = await admin(sim, 'POST', '/keys', {
      key: 'late_key_123',
      quota_total: 5,
      max_track_daily: 2,
    });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({
      key: 'late_key_123',
      quota_total: 5,
      quota_remain: 5,
      max_track_daily: 2,
    });
    const quota = await call(sim, 'getquota', {}, 'late_key_123');
    expect(quota.json).toMatchObject({ code: 0, data: { quota_total: 5, max_track_daily: 2 } });
  });
});

describe('failNext', () => {
  it('fails the next call of an endpoint with HTTP 500, then recovers', async () => {
    sim = await startSim();
    sim.failNext('register', { httpStatus: 500 });
    const failed = await call(sim, 'register', items('ABCDE12345'));
    expect(failed.status).toBe(500);
    expect(failed.json.code).toBe(-18010003);
    expect((await call(sim, 'getquota', {})).json.data.quota_used).toBe(0);
    const ok = await call(sim, 'register', items('ABCDE12345'));
    expect(ok.status).toBe(200);
    expect(ok.json.data.accepted).toHaveLength(1);
  });

  it('fails with HTTP 429 N times for the endpoint only', async () => {
    sim = await startSim();
    sim.failNext('gettrackinfo', { httpStatus: 429, times: 2 });
    expect((await call(sim, 'getquota', {})).status).toBe(200);
    expect((await call(sim, 'gettrackinfo', items('ABCDE12345'))).status).toBe(429);
    expect((await call(sim, 'gettrackinfo', items('ABCDE12345'))).status).toBe(429);
    expect((await call(sim, 'gettrackinfo', items('ABCDE12345'))).status).toBe(200);
  });

  it('answers HTTP 200 with a negative code when only a code is given, via the admin API and "*"', async () => {
    sim = await startSim();
    const set = await admin(sim, 'POST', '/fail', { endpoint: '*', code: -18010003, times: 2 });
    expect(set.status).toBe(200);
    expect(set.json.pending).toEqual([
      { endpoint: '*', httpStatus: 200, code: -18010003, remaining: 2, apiKey: null },
    ]);
    const a = await call(sim, 'getquota', {});
    const b = await call(sim, 'stoptrack', items('ABCDE12345'));
    expect([a.status, a.json.code, b.status, b.json.code]).toEqual([
      200, -18010003, 200, -18010003,
    ]);
    expect((await call(sim, 'getquota', {})).json.code).toBe(0);
  });

  it('takes an HTTP status and a code together, e.g. 503', async () => {
    sim = await startSim();
    await admin(sim, 'POST', '/fail', { endpoint: 'getquota', http_status: 503, code: -18010003 });
    const res = await call(sim, 'getquota', {});
    expect(res.status).toBe(503);
    expect(res.json.code).toBe(-18010003);
  });

  it('fails only the calls of one key when given api_key; other keys are unaffected', async () => {
    sim = await startSim();
    const set = await admin(sim, 'POST', '/fail', {
      endpoint: '*',
      http_status: 429,
      times: 2,
      api_key: KEY,
    });
    expect(set.json.pending).toEqual([
      { endpoint: '*', httpStatus: 429, code: null, remaining: 2, apiKey: KEY },
    ]);
    expect((await call(sim, 'getquota', {}, OTHER_KEY)).status).toBe(200);
    const limited = await call(sim, 'getquota', {}, KEY);
    expect([limited.status, limited.json.code]).toEqual([429, -18010014]);
    expect((await call(sim, 'getquota', {}, OTHER_KEY)).status).toBe(200);
    expect((await call(sim, 'getquota', {}, KEY)).status).toBe(429);
    expect((await call(sim, 'getquota', {}, KEY)).status).toBe(200);
  });

  it('refuses an unknown endpoint name', async () => {
    sim = await startSim();
    const res = await admin(sim, 'POST', '/fail', { endpoint: 'nope' });
    expect(res.status).toBe(400);
    expect(res.json.error).toContain('nope');
    expect(() => sim!.failNext('nope' as 'register')).toThrow(/unknown endpoint/);
  });
});
