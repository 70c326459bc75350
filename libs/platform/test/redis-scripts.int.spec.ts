import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { connectRedis, withScripts } from '../src/index.js';

interface CounterScripts {
  addTwice(key: string, by: number): Promise<number>;
}
const ADD_TWICE = `
redis.call('INCRBY', KEYS[1], ARGV[1])
return redis.call('INCRBY', KEYS[1], ARGV[1])
`;

describe('withScripts', () => {
  it('runs a script as a command, defined once per client, and again after Redis lost its scripts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'platform-scripts-'));
    const server = await startRedisServer({ dataDir });
    const redis = await connectRedis(server.url);
    try {
      const scripted = withScripts<CounterScripts>(redis, {
        addTwice: { numberOfKeys: 1, lua: ADD_TWICE },
      });
      expect(await scripted.addTwice('counter', 3)).toBe(6);
      // A second part sharing the client brings the same script: the command is kept as it was.
      const defined = scripted.addTwice;
      const again = withScripts<CounterScripts>(redis, {
        addTwice: { numberOfKeys: 1, lua: 'return 0' },
      });
      expect(again.addTwice).toBe(defined);
      expect(await again.addTwice('counter', 1)).toBe(8);
      // A restarted Redis has no scripts cached; the command loads its own again.
      await redis.script('FLUSH');
      expect(await again.addTwice('counter', 1)).toBe(10);
    } finally {
      await redis.quit();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
