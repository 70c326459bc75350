import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectRedis, createLogger } from '@inventory/platform';
import { startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderClient, type ProviderClientOptions } from '../src/provider/client.js';
import { ProviderError } from '../src/provider/errors.js';
import { KeyPacer } from '../src/provider/pacer.js';
import { RedisPacer } from '../src/provider/redis-pacer.js';

const KEY = 'client_test_key_1';
const KEY_2 = 'client_test_key_2';
const logger = createLogger({ service: 'test', level: 'silent' });

let sim: ProviderSimHandle;
let infra: TestInfra;
const client = ({
  ratePerSecond = 3,
  ...options
}: Partial<ProviderClientOptions> & { ratePerSecond?: number } = {}) =>
  new ProviderClient({
    baseUrl: sim.url,
    timeoutMs: 2_000,
    pacer: new KeyPacer(ratePerSecond),
    breakerResetMs: 60_000,
    logger,
    ...options,
  });

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error('expected a provider error');
}

beforeAll(async () => {
  // The simulator enforces the real limit: 3 requests per second per key.
  sim = await startProviderSim({ keys: [{ key: KEY }, { key: KEY_2 }], rateLimitPerSecond: 3 });
  infra = await startTestInfra({ nats: false, mongo: false });
});
afterAll(async () => {
  await sim?.stop();
  await infra?.stop();
});
beforeEach(() => sim.reset());

describe('provider client', () => {
  it('paces each key to the provider limit instead of getting 429s', async () => {
    const provider = client();
    const started = Date.now();
    const quotas = await Promise.all(Array.from({ length: 7 }, () => provider.getQuota(KEY)));
    const elapsed = Date.now() - started;
    expect(quotas.every((quota) => quota.total === 1000)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
  });

  it('never holds up another key behind a full one', async () => {
    // A long window is the yardstick: held up, the other key would answer after the 4th call.
    const provider = client({ pacer: new KeyPacer(3, 10_000) });
    const answered: string[] = [];
    const busy = Array.from({ length: 4 }, (_, i) =>
      provider.getQuota(KEY).then(() => answered.push(`busy ${i}`)),
    );
    await provider.getQuota(KEY_2).then(() => answered.push('other key'));
    expect(answered).not.toContain('busy 3');
    await Promise.all(busy);
    expect(answered.at(-1)).toBe('busy 3');
  });

  it('keeps two replicas together within the provider limit when they pace through one Redis', async () => {
    // Control: paced per process, two replicas together overrun the simulator's 3/s.
    const alone = [client(), client()];
    const unshared = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => alone[i % 2]!.getQuota(KEY)),
    );
    expect(unshared.some((result) => result.status === 'rejected')).toBe(true);
    alone.forEach((provider) => provider.breakers.shutdown());
    sim.reset();

    const connections = await Promise.all([
      connectRedis(infra.redisUrl),
      connectRedis(infra.redisUrl),
    ]);
    try {
      const replicas = connections.map((redis) =>
        client({ pacer: new RedisPacer(redis, { perSecond: 3, leaseMs: 3_000, logger }) }),
      );
      const started = Date.now();
      const quotas = await Promise.all(
        Array.from({ length: 8 }, (_, i) => replicas[i % 2]!.getQuota(KEY)),
      );
      expect(quotas.every((quota) => quota.total === 1000)).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
      replicas.forEach((provider) => provider.breakers.shutdown());
    } finally {
      await Promise.all(connections.map((redis) => redis.quit()));
    }
  });

  it('registers in batches of at most 40 and treats "already registered" as success', async () => {
    const provider = client();
    const numbers = Array.from({ length: 85 }, (_, i) => ({
      number: `NUM${String(i).padStart(6, '0')}`,
    }));
    const first = await provider.register(KEY, numbers);
    expect(first.accepted).toHaveLength(85);
    expect(first.rejected).toEqual([]);
    const again = await provider.register(KEY, numbers.slice(0, 3));
    expect(again.accepted.map((item) => item.number)).toEqual([
      'NUM000000',
      'NUM000001',
      'NUM000002',
    ]);
    const undetectable = await provider.register(KEY, [{ number: 'UNDETECTABLE123' }]);
    expect(undetectable.rejected).toEqual([
      { number: 'UNDETECTABLE123', code: -18019903, message: expect.any(String) },
    ]);
    expect((await provider.getQuota(KEY)).used).toBe(85);
  });

  it('classifies: 401 or -18010002 → invalid_key; 429, 5xx, other negative codes → api_error', async () => {
    const provider = client({ ratePerSecond: 1000 });
    expect((await failure(provider.getQuota('wrong_key_000'))).code).toBe('invalid_key');
    sim.setAuthStyle('http401');
    expect((await failure(provider.getQuota('wrong_key_001'))).code).toBe('invalid_key');
    for (const spec of [{ httpStatus: 429 }, { httpStatus: 502 }, { code: -18010012 }]) {
      sim.failNext('getquota', spec);
      expect((await failure(provider.getQuota(KEY))).code).toBe('api_error');
    }
  });

  it('times out a provider that does not answer (api_error)', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const provider = client({
        baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        timeoutMs: 200,
      });
      const error = await failure(provider.getQuota(KEY));
      expect(error.code).toBe('api_error');
      expect(error.message).toMatch(/in time/);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('opens the breaker on repeated failures (then fails fast), but never on rejected keys', async () => {
    const provider = client({ ratePerSecond: 1000 });
    // Distinct wrong keys: the provider's rate limit counts wrong keys too.
    for (let i = 0; i < 8; i++) await failure(provider.getQuota(`wrong_key_00${i}`));
    expect(provider.breakers.shared.opened).toBe(false);
    expect(provider.breakers.peek('wrong_key_000')?.opened).toBe(false);
    expect(provider.breakers.peek(KEY)).toBeUndefined();
    // Filtered (rejected-key) calls count as successes, so it takes more failures than that to pass 50%.
    sim.failNext('*', { httpStatus: 503, times: 20 });
    for (let i = 0; i < 12; i++) await failure(provider.getQuota(KEY));
    expect(provider.breakers.peek(KEY)?.opened).toBe(true);
    sim.reset();
    const fast = await failure(provider.getQuota(KEY));
    expect(fast).toMatchObject({
      code: 'api_error',
      message: expect.stringMatching(/keeps failing calls with this API key/),
    });
    provider.breakers.shutdown();
  });
});
