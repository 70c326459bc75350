import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTimes, startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectMongo, createLogger, ensureIndexes } from '@inventory/platform';
import { DeliveryWorker } from '../src/workers/delivery-worker.js';
import { DeliveryRepository } from '../src/store/delivery-repository.js';
import type { DeliveryDocument } from '../src/store/delivery.js';

describe('an idle delivery worker (ADR 0715)', () => {
  let infra: TestInfra;
  let connection: Connection;
  beforeAll(async () => {
    infra = await startTestInfra({ nats: false, redis: false });
    connection = await connectMongo(infra.mongoUrl, infra.dbName('outbound_idle'));
    await ensureIndexes(connection);
  });
  afterAll(async () => {
    await connection?.close();
    await infra?.stop();
  });

  it('looks at the schedule less and less often while nothing is due, and still runs what comes due', async () => {
    const deliveries = new DeliveryRepository(connection);
    const lookedAt = callTimes(deliveries, 'dueIdsAcrossTenants');
    const attempted: string[] = [];
    const worker = new DeliveryWorker(
      deliveries,
      // The worker's loop is under test here, not sending: an attempt is only recorded.
      async (batch: DeliveryDocument[]) =>
        batch.map((delivery) => {
          attempted.push(delivery.delivery_id);
          return Promise.resolve();
        }),
      { pollMs: 20, idlePollMs: 160, concurrency: 4, leaseMs: 60_000, attemptTimeoutMs: 1_000 },
      createLogger({ service: 'test', level: 'silent' }),
    );
    worker.start();
    try {
      // Empty looks at 0, 20, 60, 140, 300, 460 ms at the earliest: waits of 20, 40, 80, 160, 160.
      await expect.poll(() => lookedAt.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
      expect(lookedAt[5]! - lookedAt[0]!).toBeGreaterThanOrEqual(440);

      // Scheduled by another replica (a retry coming due, a redelivery): this worker is not woken.
      await deliveries.insertNew([
        {
          delivery_id: 'idle-delivery-1',
          tenant_id: 'tenant-idle',
          subscription_id: 1,
          event: 'product.created',
          dedupe_key: 'idle-delivery-1',
          body: '{}',
          occurred_at: new Date(),
        },
      ]);
      await expect.poll(() => attempted, { timeout: 10_000 }).toEqual(['idle-delivery-1']);
    } finally {
      await worker.stop();
    }
  });
});
