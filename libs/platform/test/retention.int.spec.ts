import { startTestInfra, waitFor, type TestInfra } from '@inventory/local-infra';
import { Schema, type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention, connectMongo, createLogger } from '../src/index.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const DAY_MS = 24 * 3600 * 1000;

// Logs that grow with traffic keep their rows for a configured number of days.
describe('applyRetention', () => {
  let infra: TestInfra;
  let connection: Connection;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false, nats: false });
    connection = await connectMongo(infra.mongoUrl, infra.dbName('retention'));
  });
  afterAll(async () => {
    await connection?.close();
    await infra?.stop();
  });

  it('creates one TTL index, re-creates it when the days change, and old rows go', async () => {
    const Log = connection.model(
      'RetainedLog',
      new Schema({ text: String, created_at: Date }, { collection: 'retained_logs' }),
    );
    const collection = Log.collection;
    const ttlIndexes = async () =>
      (await collection.indexes()).filter((index) => index.expireAfterSeconds !== undefined);

    await applyRetention(logger, { collection, field: 'created_at', days: 30 });
    expect(await ttlIndexes()).toEqual([
      expect.objectContaining({ key: { created_at: 1 }, expireAfterSeconds: 30 * 24 * 3600 }),
    ]);
    await applyRetention(logger, { collection, field: 'created_at', days: 30 });
    await applyRetention(logger, { collection, field: 'created_at', days: 7 });
    expect(await ttlIndexes()).toEqual([
      expect.objectContaining({ key: { created_at: 1 }, expireAfterSeconds: 7 * 24 * 3600 }),
    ]);

    await Log.create([
      { text: 'old', created_at: new Date(Date.now() - 8 * DAY_MS) },
      { text: 'recent', created_at: new Date(Date.now() - 6 * DAY_MS) },
    ]);
    // MongoDB's TTL monitor runs every minute; the embedded server's every second.
    await waitFor(async () => (await Log.countDocuments({ text: 'old' })) === 0, {
      timeoutMs: 150_000,
      what: 'the expired row deleted',
    });
    expect(await Log.countDocuments({ text: 'recent' })).toBe(1);
  }, 180_000);
});
