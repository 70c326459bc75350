import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { startRedisServer, type LocalServer } from '@inventory/local-infra';
import { connectRedis, createLogger, type Redis } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateGate } from './rate-gate.js';
import { RateLimiter } from './rate-limiter.js';

/**
 * The auth hook's rate-limit step against a real Redis: the first request of a key waits for
 * Redis, and a request the replica's lease already covers is admitted without a promise (ADR
 * 0718), with the same headers.
 */
describe('rateGate', () => {
  const DAY_MS = 86_400_000;
  const logger = createLogger({ service: 'test', level: 'silent' });
  let server: LocalServer;
  let dataDir: string;
  let redis: Redis;
  let app: FastifyInstance;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rate-gate-'));
    server = await startRedisServer({ dataDir });
    redis = await connectRedis(server.url);
    const limiter = new RateLimiter(redis, logger, {
      failOpenMs: 0,
      periodMs: DAY_MS,
      leases: { now: () => 0 },
    });
    const gate = rateGate(limiter);
    app = Fastify();
    app.get('/take', async (_request, reply) => {
      const pending = gate(reply, 'token', 'rl:token:1', 1_000);
      const promised = pending instanceof Promise;
      await pending;
      return { promised };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    redis?.disconnect();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('asks Redis while the key has no slot held, then admits from the lease without a promise', async () => {
    // A key's first call takes one slot; used up at once, the next call takes two (ADR 0717), and
    // the third request is the lease's second slot.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await app.inject({ url: '/take' }));
    expect(answers.map((answer) => answer.json())).toEqual([
      { promised: true },
      { promised: true },
      { promised: false },
    ]);
    const [, leased, held] = answers;
    expect(held!.headers['x-ratelimit-limit']).toBe('1000');
    expect(Number(held!.headers['x-ratelimit-remaining'])).toBe(
      Number(leased!.headers['x-ratelimit-remaining']) - 1,
    );
    expect(held!.headers['ratelimit-policy']).toBe('"token";q=1000;w=60');
  });
});
