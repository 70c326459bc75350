import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer, waitFor, type LocalServer } from '@inventory/local-infra';
import { connectRedis, createLogger, type Redis } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

/** Issue #18 item 5: a frozen Redis costs one command timeout per probe, not one per request. */
describe('RateLimiter against a frozen Redis (SIGSTOP)', () => {
  let server: LocalServer;
  let redis: Redis;
  let dataDir: string;
  let frozen = false;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rate-limiter-frozen-'));
    server = await startRedisServer({ dataDir });
    redis = await connectRedis(server.url, undefined, { commandTimeoutMs: 300 });
  });
  afterAll(async () => {
    if (frozen) process.kill(server.child.pid!, 'SIGCONT');
    redis?.disconnect();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('tells every decision (the gateway_rate_limit_decisions_total series): allowed, then limited', async () => {
    const limiter = new RateLimiter(redis, createLogger({ service: 'test', level: 'silent' }), {
      failOpenMs: 0,
    });
    const decisions: string[] = [];
    limiter.onDecision = (decision) => decisions.push(decision);
    await limiter.take('rl:decisions', 1);
    await limiter.take('rl:decisions', 1);
    expect(decisions).toEqual(['allowed', 'limited']);
  });

  it('admits at most the limit in any window of one period, however the requests are spread', async () => {
    const periodMs = 1_500;
    const limit = 5;
    const limiter = new RateLimiter(redis, createLogger({ service: 'test', level: 'silent' }), {
      failOpenMs: 0,
      periodMs,
    });
    // Each admission was counted at some moment between its request's send and its answer.
    const admitted: Array<{ sentAt: number; answeredAt: number }> = [];
    const startedAt = Date.now();
    // Three periods of steady asking, one request every 20 ms: a token-bucket (GCRA) limit
    // admits its burst and then one per period/limit, 9 in a period; a window admits 5.
    await waitFor(
      async () => {
        const sentAt = Date.now();
        const result = await limiter.take('rl:window', limit);
        if (result?.allowed) admitted.push({ sentAt, answeredAt: Date.now() });
        return Date.now() - startedAt >= 3 * periodMs;
      },
      { everyMs: 20, timeoutMs: 60_000 },
    );
    expect(admitted.length).toBeGreaterThanOrEqual(2 * limit);
    for (const first of admitted) {
      // Admissions surely counted within one period of `first`: answered before a period from
      // its send had passed. Send times alone would also count a request a busy machine held
      // back after noting its time, whose count fell in the next period.
      const surelyInPeriod = admitted.filter(
        (other) => other.sentAt >= first.sentAt && other.answeredAt < first.sentAt + periodMs,
      );
      expect(
        surelyInPeriod.length,
        `admissions in the period from ${first.sentAt - startedAt} ms`,
      ).toBeLessThanOrEqual(limit);
    }
  });

  it('fails open, asks Redis with one request at a time while it is frozen, and limits again after SIGCONT', async () => {
    const limiter = new RateLimiter(redis, createLogger({ service: 'test', level: 'silent' }), {
      failOpenMs: 600_000,
    });
    const decisions = new Set<string>();
    limiter.onDecision = (decision) => decisions.add(decision);
    expect(await limiter.take('rl:test', 10)).toMatchObject({ allowed: true, limit: 10 });

    process.kill(server.child.pid!, 'SIGSTOP');
    frozen = true;
    // The first request after the freeze waits for the command timeout, then fails open.
    expect(await limiter.take('rl:test', 10)).toBeUndefined();

    const script = vi.spyOn(
      redis as unknown as { slidingWindow: (...args: unknown[]) => unknown },
      'slidingWindow',
    );
    const results = await Promise.all(
      Array.from({ length: 10 }, () => limiter.take('rl:test', 10)),
    );
    expect(results).toEqual(Array.from({ length: 10 }, () => undefined));
    // One probe went to Redis; the nine others were decided from the outage state.
    expect(script).toHaveBeenCalledTimes(1);
    script.mockRestore();

    process.kill(server.child.pid!, 'SIGCONT');
    frozen = false;
    let result = await limiter.take('rl:test', 10);
    const deadline = Date.now() + 10_000;
    while (result === undefined && Date.now() < deadline)
      result = await limiter.take('rl:test', 10);
    expect(result).toMatchObject({ allowed: true, limit: 10 });
    expect([...decisions].sort()).toEqual(['allowed', 'fail_open']);
  });
});
