import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startRedisServer, waitFor } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { connectRedis, createLogger } from '../src/index.js';

describe('connectRedis during an outage', () => {
  it('warns once however often it retries, and says when Redis is back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'platform-redis-'));
    const lines: Array<{
      level: number;
      msg: string;
      failing_for_ms?: number;
      outage_ms?: number;
    }> = [];
    const destination = new Writable({
      write: (chunk, _encoding, done) => void (lines.push(JSON.parse(String(chunk))), done()),
    });
    const logger = createLogger({ service: 'redis-test', level: 'info', destination });
    let server = await startRedisServer({ dataDir });
    const redis = await connectRedis(server.url, logger);
    let errors = 0;
    redis.on('error', () => errors++);
    try {
      await server.stop();
      // Retries come every 200, 400, 600 ... ms: several errors within three seconds.
      await waitFor(() => errors >= 4);
      const warnings = lines.filter((line) => line.level === 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ msg: 'redis error', failing_for_ms: 0 });

      server = await startRedisServer({ dataDir, port: server.port });
      await waitFor(() => redis.status === 'ready');
      expect(await redis.ping()).toBe('PONG');
      const back = lines.filter((line) => line.level === 30);
      expect(back).toHaveLength(1);
      expect(back[0]!.msg).toBe('redis reachable again');
      expect(back[0]!.outage_ms).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
      await server.stop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('connectRedis against a frozen Redis (SIGSTOP)', () => {
  it('fails commands after the command timeout instead of waiting, and works again after SIGCONT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'platform-redis-frozen-'));
    const server = await startRedisServer({ dataDir });
    const redis = await connectRedis(server.url, undefined, { commandTimeoutMs: 300 });
    const pid = server.child.pid!;
    try {
      expect(await redis.ping()).toBe('PONG');
      process.kill(pid, 'SIGSTOP');
      // The connection stays open and Redis never answers: only the timeout can end the command.
      const outcome = await redis.get('some-key').then(
        () => 'answered',
        (error: Error) => error.message,
      );
      expect(outcome).toMatch(/timed out/i);
      expect(redis.status).toBe('ready');

      process.kill(pid, 'SIGCONT');
      const pong = await waitFor(() => redis.ping().catch(() => undefined), 'a PONG after SIGCONT');
      expect(pong).toBe('PONG');
    } finally {
      process.kill(pid, 'SIGCONT');
      redis.disconnect();
      await server.stop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
