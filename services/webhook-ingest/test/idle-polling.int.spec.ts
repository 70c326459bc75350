import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTimes, startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectMongo, createLogger, ensureIndexes } from '@inventory/platform';
import { WebhookEventRepository } from '../src/store/webhook-event-repository.js';
import type { WebhookEventDocument } from '../src/store/webhook-event.js';
import { WebhookProcessor } from '../src/workers/webhook-processor.js';
import { inTransit, receivedEvent } from './rows.js';

const TENANT = 'tenant-idle-polling';

describe('an idle processing job (ADR 0715)', () => {
  let infra: TestInfra;
  let connection: Connection;
  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    connection = await connectMongo(infra.mongoUrl, infra.dbName('webhook_ingest_idle'));
    await ensureIndexes(connection);
  });
  afterAll(async () => {
    await connection?.close();
    await infra?.stop();
  });

  it('looks less and less often while it finds nothing, and still takes a row another replica stored', async () => {
    const inbox = new WebhookEventRepository(connection);
    const lookedAt = callTimes(inbox, 'claimDueAcrossTenants');
    const processed: number[] = [];
    const processor = new WebhookProcessor({
      inbox,
      // The job's loop is under test here, not processing: a row taken is only recorded.
      process: {
        execute: async (row: WebhookEventDocument) => {
          processed.push(row.id);
          return 'retry' as const;
        },
      },
      logger: createLogger({ service: 'test', level: 'silent' }),
      leaseMs: 60_000,
      pollMs: 20,
      idlePollMs: 160,
      concurrency: 4,
    });
    processor.start();
    try {
      // Empty looks at 0, 20, 60, 140, 300, 460 ms at the earliest: waits of 20, 40, 80, 160, 160.
      await expect.poll(() => lookedAt.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
      expect(lookedAt[5]! - lookedAt[0]!).toBeGreaterThanOrEqual(440);

      // Stored by another replica: not leased, and this job is not woken.
      const stored = await inbox.storeForProcessing(
        receivedEvent(TENANT, 'IDLE1'),
        inTransit('IDLE1'),
        'IDLE1:1',
      );
      await expect.poll(() => processed, { timeout: 10_000 }).toEqual([stored.id]);
    } finally {
      await processor.stop();
    }
  });
});
