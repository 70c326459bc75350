import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@inventory/platform';
import { startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderClient, type ProviderClientOptions } from '../src/provider/client.js';
import { ProviderError } from '../src/provider/errors.js';
import { KeyPacer } from '../src/provider/pacer.js';

const KEY_A = 'breaker_key_tenant_a';
const KEY_B = 'breaker_key_tenant_b';
const logger = createLogger({ service: 'test', level: 'silent' });

let sim: ProviderSimHandle;
const clients: ProviderClient[] = [];
const client = (options: Partial<ProviderClientOptions> = {}) => {
  const made = new ProviderClient({
    baseUrl: sim.url,
    timeoutMs: 300,
    pacer: new KeyPacer(1000),
    breakerResetMs: 60_000,
    logger,
    ...options,
  });
  clients.push(made);
  return made;
};

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a provider error');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ProviderError);
      return error as ProviderError;
    },
  );
const calls = () => sim.state.faults.pending().reduce((sum, fault) => sum + fault.remaining, 0);

beforeAll(async () => {
  sim = await startProviderSim({
    keys: [{ key: KEY_A }, { key: KEY_B }],
    rateLimitPerSecond: 1000,
  });
});
afterAll(async () => {
  clients.forEach((made) => made.breakers.shutdown());
  await sim?.stop();
});
beforeEach(() => sim.reset());

describe('provider breakers per key', () => {
  it("one key's 429s open only that key's breaker; another key is still asked", async () => {
    const provider = client();
    sim.failNext('*', { httpStatus: 429, times: 100, apiKey: KEY_A });
    for (let i = 0; i < 5; i++) {
      const error = await failure(provider.getQuota(KEY_A));
      expect(error.code).toBe('api_error');
      expect(error.message).toMatch(/rate limit/);
    }
    expect(provider.breakers.peek(KEY_A)?.opened).toBe(true);
    expect(provider.breakers.shared.opened).toBe(false);
    const left = calls();
    // Key A now fails fast, without the provider being asked.
    expect((await failure(provider.getQuota(KEY_A))).code).toBe('api_error');
    expect(calls()).toBe(left);
    // Key B is answered by the provider.
    expect((await provider.getQuota(KEY_B)).total).toBe(1000);
    expect(provider.breakers.peek(KEY_B)?.opened).toBe(false);
  });

  it("one key's 5xx and error codes do not open the shared breaker", async () => {
    const provider = client();
    sim.failNext('*', { httpStatus: 503, times: 10, apiKey: KEY_A });
    sim.failNext('*', { code: -18010003, times: 10, apiKey: KEY_A });
    for (let i = 0; i < 20; i++) await failure(provider.getQuota(KEY_A));
    expect(provider.breakers.shared.opened).toBe(false);
    expect((await provider.getQuota(KEY_B)).total).toBe(1000);
  });

  it('a provider that does not answer across keys opens the shared breaker for every key', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const provider = client({
        baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        timeoutMs: 100,
      });
      for (let i = 0; i < 6; i++) await failure(provider.getQuota(`outage_key_${i}`));
      expect(provider.breakers.shared.opened).toBe(true);
      const fast = await failure(provider.getQuota('a_key_never_used'));
      expect(fast.message).toMatch(/unavailable/);
      // The shared breaker's refusals are not held against the key.
      expect(provider.breakers.peek('a_key_never_used')?.opened).toBe(false);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('keeps a bounded number of key breakers, dropping the least recently used', async () => {
    const provider = client({ breakerMaxKeys: 3 });
    for (let i = 0; i < 6; i++) await failure(provider.getQuota(`many_keys_${i}`));
    expect(provider.breakers.size).toBe(3);
    expect(provider.breakers.peek('many_keys_0')).toBeUndefined();
    expect(provider.breakers.peek('many_keys_5')).toBeDefined();
  });
});
