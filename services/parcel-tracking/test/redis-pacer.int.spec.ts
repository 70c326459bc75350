import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { startRedisServer, startTestInfra, waitFor, type TestInfra } from '@inventory/local-infra';
import { connectRedis, createLogger, type Redis } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paceKey, RedisPacer, type RedisPacerOptions } from '../src/provider/redis-pacer.js';

const silent = createLogger({ service: 'test', level: 'silent' });
/** Redis TIME and this process's clock tick differently; allow this much at a window's edge. */
const TOLERANCE_MS = 3;

let infra: TestInfra;
let replicaA: Redis;
let replicaB: Redis;
let admin: Redis;
let keySeq = 0;
/** A fresh API key per test, so tests never share a window. */
const apiKey = () => `pacer_test_key_${process.pid}_${++keySeq}`;
const pacer = (redis: Redis, options: Partial<RedisPacerOptions> = {}) =>
  new RedisPacer(redis, { perSecond: 3, leaseMs: 5_000, logger: silent, ...options });
const sleep = (ms: number) =>
  // eslint-disable-next-line no-restricted-syntax -- the paced task's own duration, not a wait for a condition
  new Promise((resolve) => setTimeout(resolve, ms));

function capture() {
  const lines: Array<{ level: number; msg: string }> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      callback();
    },
  });
  return { lines, logger: createLogger({ service: 'test', level: 'info', destination }) };
}

beforeAll(async () => {
  infra = await startTestInfra({ nats: false, mongo: false });
  [replicaA, replicaB, admin] = await Promise.all([
    connectRedis(infra.redisUrl),
    connectRedis(infra.redisUrl),
    connectRedis(infra.redisUrl),
  ]);
});
afterAll(async () => {
  for (const redis of [replicaA, replicaB, admin]) await redis?.quit().catch(() => undefined);
  await infra?.stop();
});

describe('RedisPacer', () => {
  it('keeps two replicas sharing one key to 3 calls in any 1 s window, counted from when each finished', async () => {
    const replicas = [pacer(replicaA), pacer(replicaB)];
    const key = apiKey();
    const calls: Array<{ replica: number; i: number; start: number; finish: number }> = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        replicas[i % 2]!.run(key, async () => {
          const start = performance.now() - t0;
          await sleep((i * 7) % 40);
          calls.push({ replica: i % 2, i, start, finish: performance.now() - t0 });
        }),
      ),
    );
    expect(calls).toHaveLength(12);
    // At each start, the calls that started by then and had not left the window (finished
    // at least 1 s earlier), this one included, are at most 3.
    for (const call of calls) {
      const counted = calls.filter(
        (other) => other.start <= call.start && other.finish > call.start - 1_000 + TOLERANCE_MS,
      );
      expect(counted.length, `calls counted when call ${call.i} started`).toBeLessThanOrEqual(3);
    }
    const starts = calls.map((call) => call.start).sort((a, b) => a - b);
    // That the first three do not wait is shown against a long window in the next test.
    expect(starts[3]!).toBeGreaterThanOrEqual(1_000 - TOLERANCE_MS);
    expect(starts[11]!).toBeGreaterThanOrEqual(3_000 - TOLERANCE_MS);
    // Within a replica, callers take turns in call order.
    for (const replica of [0, 1]) {
      const own = calls
        .filter((call) => call.replica === replica)
        .sort((a, b) => a.start - b.start);
      expect(own.map((call) => call.i)).toEqual(
        [...own.map((call) => call.i)].sort((a, b) => a - b),
      );
    }
  });

  it('lets the first calls of a window go at once, and never holds up another key, in the same replica or another', async () => {
    // A long window is the yardstick: whatever waited for it would start after the 4th busy call.
    const options = { windowMs: 10_000 };
    const a = pacer(replicaA, options);
    const b = pacer(replicaB, options);
    const busy = apiKey();
    const started: string[] = [];
    const busyCalls = Array.from({ length: 4 }, (_, i) =>
      a.run(busy, async () => void started.push(`busy ${i}`)),
    );
    await Promise.all([
      a.run(apiKey(), async () => void started.push('same replica')),
      b.run(apiKey(), async () => void started.push('other replica')),
      ...busyCalls.slice(0, 3),
    ]);
    expect([...started].sort()).toEqual([
      'busy 0',
      'busy 1',
      'busy 2',
      'other replica',
      'same replica',
    ]);
    // The busy key really was full: its 4th call waited for the window.
    await busyCalls[3];
    expect(started.at(-1)).toBe('busy 3');
  }, 60_000);

  it('frees the slot of a call that throws', async () => {
    const key = apiKey();
    // Were the slot still held as in flight, the next call would wait out this lease (and time out).
    const options = { perSecond: 1, windowMs: 300, leaseMs: 10 * 60_000 };
    let failedAt = 0;
    await expect(
      pacer(replicaA, options).run(key, async () => {
        // Taken before the pacer marks the call finished: the window can only start later.
        // (After the rejection arrives would be too late by a Redis round trip.)
        failedAt = performance.now();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const startedAfter = await pacer(replicaB, options).run(
      key,
      async () => performance.now() - failedAt,
    );
    expect(startedAfter).toBeGreaterThanOrEqual(300 - TOLERANCE_MS);
  });

  it("frees a crashed replica's in-flight slot once its lease and a window have passed", async () => {
    const key = apiKey();
    let crash!: () => void;
    const holding = new Promise<void>((resolve) => (crash = resolve));
    const t0 = performance.now();
    const stuck = pacer(replicaA, { perSecond: 1, windowMs: 200, leaseMs: 300 }).run(
      key,
      () => holding,
    );
    // The crashed replica holds the slot before the other one asks.
    await waitFor(async () => (await admin.zcard(paceKey(key))) === 1, 'the slot in flight');
    const startedAt = await pacer(replicaB, { perSecond: 1, windowMs: 200, leaseMs: 5_000 }).run(
      key,
      async () => performance.now() - t0,
    );
    // Not before the lease (300 ms) and a window (200 ms); never freed, it would time out.
    expect(startedAt).toBeGreaterThanOrEqual(500 - TOLERANCE_MS);
    crash();
    await stuck;
  });

  it('names the window by a hash of the API key and lets it expire', async () => {
    const key = `plaintext_secret_${process.pid}`;
    await pacer(replicaA, { leaseMs: 2_000 }).run(key, async () => undefined);
    const keys = await admin.keys('provider:pace:*');
    expect(keys).toContain(paceKey(key));
    expect(keys.some((name) => name.includes(key))).toBe(false);
    expect(paceKey(key)).toMatch(/^provider:pace:[0-9a-f]{64}$/);
    const ttl = await admin.pttl(paceKey(key));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3_000);
  });

  it('runs calls paced per replica when Redis does not answer in time, says so, and comes back to Redis', async () => {
    const { lines, logger } = capture();
    const replica = pacer(replicaA, { windowMs: 200, redisTimeoutMs: 150, logger });
    const key = apiKey();
    await admin.call('CLIENT', 'PAUSE', '1000', 'ALL');
    const pausedAt = performance.now();
    const started = await Promise.all(
      Array.from({ length: 4 }, () => replica.run(key, async () => performance.now() - pausedAt)),
    );
    // Still paced, by this replica alone: the 4th waits for the 1st to leave the window.
    expect(started[3]! - started[0]!).toBeGreaterThanOrEqual(200 - TOLERANCE_MS);
    const warnings = lines.filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toMatch(/cannot reach Redis/);

    // One timeout, then straight to the in-process pacer (not one timeout per call): each
    // acquire that timed out still reaches Redis once the pause ends and takes a slot there.
    // A reply on the same connection comes after those queued acquires have run; a ping sent
    // while the pause lasts may itself time out (the 500 ms command timeout), so until one is
    // answered.
    await waitFor(
      async () => (await replicaA.ping().catch(() => null)) === 'PONG',
      'Redis answers after the pause',
    );
    expect(await admin.zcard(paceKey(key))).toBe(1);

    // Once the pause and the skip period are over, calls are paced through Redis again.
    const other = apiKey();
    await waitFor(async () => {
      await replica.run(other, async () => undefined);
      return (await admin.exists(paceKey(other))) === 1;
    }, 'a call paced through Redis again');
    expect(lines.filter((line) => line.level === 30).map((line) => line.msg)).toEqual([
      expect.stringMatching(/reaches Redis again/),
    ]);
  });
});

describe('RedisPacer with Redis down', () => {
  it('still runs the call, paced by this replica, logging a warning at most every 10 s', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pacer-redis-'));
    const server = await startRedisServer({ dataDir });
    const redis = await connectRedis(server.url);
    try {
      const { lines, logger } = capture();
      const replica = pacer(redis, { windowMs: 200, logger });
      const key = `down_key_${process.pid}`;
      expect(await replica.run(key, async () => 'up')).toBe('up');
      await server.stop();
      const t0 = performance.now();
      const started = await Promise.all(
        Array.from({ length: 4 }, () => replica.run(key, async () => performance.now() - t0)),
      );
      expect(started[3]! - started[0]!).toBeGreaterThanOrEqual(200 - TOLERANCE_MS);
      await expect(
        replica.run(key, async () => Promise.reject(new Error('task failed'))),
      ).rejects.toThrow('task failed');
      const warnings = lines.filter((line) => line.level === 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.msg).toMatch(/cannot reach Redis/);
      expect(JSON.stringify(lines)).not.toContain(key);
    } finally {
      redis.disconnect();
      await server.stop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
