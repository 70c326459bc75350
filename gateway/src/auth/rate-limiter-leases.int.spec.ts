import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer, type LocalServer } from '@inventory/local-infra';
import { connectRedis, createLogger, type Redis } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

/**
 * ADR 0717 against a real Redis: a busy key's slots are taken several at a time, never more than
 * the shared budget, the last half of a budget one slot at a time, and the headers stay exact.
 */
describe('RateLimiter leases', () => {
  // A day-long period: the budget refills one slot per 86.4 s at 1,000 a period, so a test's
  // own duration adds nothing to it.
  const DAY_MS = 86_400_000;
  const logger = createLogger({ service: 'test', level: 'silent' });
  let server: LocalServer;
  let dataDir: string;
  const connections: Redis[] = [];
  let admin: Redis;

  const connect = async () => {
    const redis = await connectRedis(server.url);
    connections.push(redis);
    return redis;
  };
  /** The script's calls so far (EVAL or EVALSHA), from Redis's own command statistics. */
  const scriptCalls = async () => {
    const stats = await admin.info('commandstats');
    return [...stats.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
  };

  /** A replica's limiter on its own connection; its lease clock stands still unless told. */
  const replica = async (now: () => number = () => 0, periodMs = DAY_MS) =>
    new RateLimiter(await connect(), logger, { failOpenMs: 0, periodMs, leases: { now } });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rate-limiter-leases-'));
    server = await startRedisServer({ dataDir });
    admin = await connect();
  });
  afterAll(async () => {
    for (const redis of connections) redis.disconnect();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('two replicas admit exactly the shared budget, asking Redis for the first half in leases and the last half slot by slot', async () => {
    const replicas = [await replica(), await replica()];
    await replicas[0]!.take('rl:warm-up', 1_000);
    const callsBefore = await scriptCalls();

    let allowed = 0;
    for (let i = 0; i < 1_000; i++) {
      const result = await replicas[i % 2]!.take('rl:shared', 1_000);
      if (result?.allowed) allowed++;
    }
    const calls = (await scriptCalls()) - callsBefore;

    expect(allowed).toBe(1_000);
    expect(await replicas[0]!.take('rl:shared', 1_000)).toMatchObject({ allowed: false });
    expect(await replicas[1]!.take('rl:shared', 1_000)).toMatchObject({ allowed: false });
    // The last 500 slots one call each; the first 500 in leases of up to 10 (1 % of 1,000).
    expect(calls).toBeGreaterThanOrEqual(500);
    expect(calls).toBeLessThan(650);
  });

  it('two replicas taking bursts of concurrent requests admit exactly the budget: one lease call per key at a time', async () => {
    const replicas = [await replica(), await replica()];
    let allowed = 0;
    let refusedOnBoth = false;
    for (let round = 0; round < 100 && !refusedOnBoth; round++) {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => replicas[i % 2]!.take('rl:bursts', 1_000)),
      );
      allowed += results.filter((result) => result?.allowed).length;
      refusedOnBoth = results.every((result) => result?.allowed === false);
    }
    expect(refusedOnBoth).toBe(true);
    expect(allowed).toBe(1_000);
  });

  it('reports the exact requests left on every response of a replica, leased or not', async () => {
    const limiter = await replica();
    const remaining: number[] = [];
    for (let i = 0; i < 40; i++)
      remaining.push((await limiter.take('rl:headers', 1_000))!.remaining);
    expect(remaining).toEqual(Array.from({ length: 40 }, (_, i) => 999 - i));
  });

  it('asks Redis about once per full lease for a busy key with a large budget', async () => {
    const limiter = await replica(() => 0, 60_000);
    await limiter.take('rl:busy-warm-up', 1_000_000);
    const callsBefore = await scriptCalls();
    for (let i = 0; i < 2_000; i++)
      expect(await limiter.take('rl:busy', 1_000_000)).toMatchObject({ allowed: true });
    // Leases of 1, 2, 4, ..., 64, then 64 at a time: 7 calls for the first 127, then one per 64.
    expect((await scriptCalls()) - callsBefore).toBe(7 + Math.ceil((2_000 - 127) / 64));
  });

  it('asks Redis again once a lease expired, and does not hand out its slots', async () => {
    const clock = { ms: 0 };
    const limiter = await replica(() => clock.ms);
    for (let i = 0; i < 4; i++) await limiter.take('rl:expiry', 1_000); // leases of 1, 2 and 4
    const callsBefore = await scriptCalls();
    clock.ms += 100;
    const after = await limiter.take('rl:expiry', 1_000);
    expect((await scriptCalls()) - callsBefore).toBe(1);
    // Seven slots were taken (1 + 2 + 4) for four requests; the three left of the expired lease
    // stay spent, and this request took an eighth (the last lease used one: the next asks one).
    expect(after).toMatchObject({ allowed: true, remaining: 992 });
  });

  it('hands out a held slot synchronously without asking Redis, and nothing once the lease is spent', async () => {
    const limiter = await replica();
    expect(limiter.takeLeased('rl:held', 1_000)).toBeUndefined();
    for (let i = 0; i < 4; i++) await limiter.take('rl:held', 1_000); // leases of 1, 2 and 4
    const callsBefore = await scriptCalls();
    // Seven slots taken in Redis for four requests: three held here, handed out one by one.
    const held = [0, 1, 2].map(() => limiter.takeLeased('rl:held', 1_000));
    expect(held).toEqual(
      [995, 994, 993].map((remaining) => expect.objectContaining({ allowed: true, remaining })),
    );
    expect(limiter.takeLeased('rl:held', 1_000)).toBeUndefined();
    expect((await scriptCalls()) - callsBefore).toBe(0);
  });

  it('uses no lease slot for a request under another limit (the token’s limit was edited)', async () => {
    const limiter = await replica();
    for (let i = 0; i < 3; i++) await limiter.take('rl:edited', 1_000); // leases of 1 and 2
    const callsBefore = await scriptCalls();
    expect(await limiter.take('rl:edited', 500)).toMatchObject({ allowed: true, limit: 500 });
    expect((await scriptCalls()) - callsBefore).toBe(1);
  });

  it('with the largest lease set to 1, asks Redis on every request', async () => {
    const limiter = new RateLimiter(await connect(), logger, {
      failOpenMs: 0,
      leases: { now: () => 0, maxSlots: 1 },
    });
    const callsBefore = await scriptCalls();
    for (let i = 0; i < 20; i++) await limiter.take('rl:exact', 1_000_000);
    expect((await scriptCalls()) - callsBefore).toBe(20);
  });
});
