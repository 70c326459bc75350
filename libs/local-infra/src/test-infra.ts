import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startEmbeddedMongo } from '@inventory/mongo-embedded';
import { startNatsServer, startRedisServer, type LocalServer } from './servers.js';

export interface TestInfra {
  natsUrl: string;
  redisUrl: string;
  mongoUrl: string;
  /** A database name no other suite uses, so suites can share a real MongoDB. */
  dbName(prefix: string): string;
  stop(): Promise<void>;
}

export interface TestInfraOptions {
  nats?: boolean;
  redis?: boolean;
  mongo?: boolean;
}

/**
 * Real servers for one test suite on random free ports: nats-server
 * (JetStream) and redis-server as child processes, the embedded MongoDB
 * in-process unless MONGO_URL points at a real one. Always `stop()` it.
 */
export async function startTestInfra(options: TestInfraOptions = {}): Promise<TestInfra> {
  const root = mkdtempSync(join(tmpdir(), 'inventory-test-'));
  const stops: Array<() => Promise<void>> = [];
  try {
    let natsUrl = '';
    let redisUrl = '';
    let mongoUrl = process.env.MONGO_URL ?? '';
    if (options.nats !== false) {
      const nats: LocalServer = await startNatsServer({ dataDir: join(root, 'nats') });
      stops.push(nats.stop);
      natsUrl = nats.url;
    }
    if (options.redis !== false) {
      const redis: LocalServer = await startRedisServer({ dataDir: join(root, 'redis') });
      stops.push(redis.stop);
      redisUrl = redis.url;
    }
    if (options.mongo !== false && !mongoUrl) {
      const mongo = await startEmbeddedMongo({ port: 0 });
      stops.push(mongo.stop);
      mongoUrl = mongo.url;
    }
    const suffix = randomBytes(4).toString('hex');
    return {
      natsUrl,
      redisUrl,
      mongoUrl,
      dbName: (prefix) => `${prefix}_${suffix}`.slice(0, 60),
      async stop() {
        for (const stop of stops.reverse()) await stop().catch(() => undefined);
        rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}
