import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderSimHandle } from '../src/index.js';
import { admin, call, startSim } from './helpers.js';

describe('hostile input gets a 4xx, never a 500', () => {
  let sim: ProviderSimHandle;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim.stop());

  it.each([
    ['not JSON', '{"number":', 400, -18010012],
    ['empty body', '', 400, -18010012],
    ['an object instead of an array', '{"number":"ABCDE12345"}', 400, -18010013],
    ['a number as tracking number', '[{"number":12345678}]', 400, -18010013],
    ['a string carrier', '[{"number":"ABCDE12345","carrier":"fedex"}]', 400, -18010013],
    ['null items', '[null]', 400, -18010013],
    ['a missing number', '[{"carrier":100003}]', 400, -18010013],
  ])('register with %s', async (_label, body, status, code) => {
    const res = await call(sim, 'register', body);
    expect(res.status).toBe(status);
    expect(res.json.code).toBe(code);
    expect(res.json.data.errors[0].message).toEqual(expect.any(String));
  });

  it('handles a text/plain body the same way', async () => {
    const res = await call(sim, 'gettrackinfo', 'hello', undefined, 'text/plain');
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(-18010012);
  });

  it('answers an empty array with -18010010', async () => {
    const res = await call(sim, 'register', []);
    expect(res.status).toBe(200);
    expect(res.json.code).toBe(-18010010);
  });

  it('rejects badly formed tracking numbers per item with -18010011', async () => {
    const res = await call(sim, 'register', [
      { number: 'AB' },
      { number: 'has spaces 123' },
      { number: 'GOOD000001' },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.data.rejected.map((r: { error: { code: number } }) => r.error.code)).toEqual([
      -18010011, -18010011,
    ]);
    expect(res.json.data.accepted).toHaveLength(1);
  });

  it('answers a body over 1 MB with 413', async () => {
    const res = await call(sim, 'register', `[${'"x",'.repeat(300_000)}"x"]`);
    expect(res.status).toBe(413);
    expect(res.json.code).toBe(-18010012);
  });

  it('answers unknown paths with 404', async () => {
    const res = await fetch(`${sim.url}/track/v1/register`, { method: 'POST', body: '[]' });
    expect(res.status).toBe(404);
  });

  it.each([
    ['POST', '/keys', '{oops'],
    ['POST', '/keys', { quota_total: 'lots' }],
    ['POST', '/push', { url: 'not a url', number: 'ABCDE12345' }],
    ['POST', '/fail', { endpoint: 'register', http_status: 99 }],
    ['POST', '/auth-style', { style: 'sometimes' }],
    ['POST', '/trackings/ABCDE12345/status', [1, 2]],
  ] as const)('admin %s %s with a bad body', async (method, path, body) => {
    const res = await admin(sim, method, path, body);
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual(expect.any(String));
  });
});
