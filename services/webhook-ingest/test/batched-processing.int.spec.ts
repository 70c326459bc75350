import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectMongo, ensureIndexes, Outbox } from '@inventory/platform';
import { webhookActivity } from '../src/domain/webhook-activity.js';
import { CLAIM_ORDER, dueForClaim } from '../src/store/webhook-event-queries.js';
import { WebhookEventRepository } from '../src/store/webhook-event-repository.js';
import { type Outcome, type WebhookEventDocument } from '../src/store/webhook-event.js';
import { finishQueue } from '../src/workers/finish-queue.js';
import { webhookEvents } from './harness.js';
import { inTransit, receivedEvent } from './rows.js';

const TENANT = 'tenant-batched';

async function storeRows(
  inbox: WebhookEventRepository,
  prefix: string,
  count: number,
): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 0; n < count; n++) {
    const number = `${prefix}${n}`;
    const stored = await inbox.storeForProcessing(
      receivedEvent(TENANT, number),
      inTransit(number),
      `${number}:1`,
    );
    ids.push(stored.id);
  }
  return ids;
}

describe('batched claims and results (ADR 0224)', () => {
  let infra: TestInfra;
  let connection: Connection;
  let inbox: WebhookEventRepository;
  let outbox: Outbox;
  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    connection = await connectMongo(infra.mongoUrl, infra.dbName('webhook_ingest_batched'));
    inbox = new WebhookEventRepository(connection);
    outbox = new Outbox(connection);
    await ensureIndexes(connection);
  });
  afterAll(async () => {
    await connection?.close();
    await infra?.stop();
  });

  it('gives every due row to exactly one of two claimers racing for them', async () => {
    const ids = await storeRows(inbox, 'RACE', 30);
    const [first, second] = await Promise.all([
      inbox.claimDueAcrossTenants('owner-a', 60_000, 20),
      inbox.claimDueAcrossTenants('owner-b', 60_000, 20),
    ]);
    const claimed = [...first, ...second].map((row) => row.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.filter((id) => ids.includes(id)).sort()).toEqual(
      ids.slice(0, claimed.length).sort(),
    );
    const again = await inbox.claimDueAcrossTenants('owner-c', 60_000, 100);
    expect(new Set([...claimed, ...again.map((row) => row.id)])).toEqual(new Set(ids));
    expect(first.every((row) => row.lease_owner === 'owner-a' && row.attempts === 1)).toBe(true);
  });

  it('claims the oldest due rows reading only those, however long the backlog', async () => {
    const ids = await storeRows(inbox, 'BACKLOG', 300);
    const now = new Date();
    const { executionStats } = (await webhookEvents(connection)
      .find(dueForClaim(now), { projection: { id: 1 } })
      .sort(CLAIM_ORDER)
      .limit(20)
      .explain('executionStats')) as { executionStats: { totalDocsExamined: number } };
    // In index order: no sort of every due row (with {state, lease_until} alone, all 300 and more).
    expect(executionStats.totalDocsExamined).toBeLessThanOrEqual(20);
    const claimed = await inbox.claimDueAcrossTenants('owner-backlog', 60_000, 20, now);
    const due = await webhookEvents(connection)
      .find({ id: { $in: ids } })
      .sort({ id: 1 })
      .toArray();
    // Every backlog row was stored due at once (lease_until 0): oldest first means by id.
    expect(claimed.map((row) => row.id)).toEqual(due.slice(0, 20).map((row) => row.id));
    await webhookEvents(connection).updateMany({ id: { $in: ids } }, { $set: { state: 'done' } });
  });

  it('writes the results of a batch together, and none for a row whose lease was lost, nor its activity', async () => {
    await storeRows(inbox, 'LOST', 3);
    const rows = (await inbox.claimDueAcrossTenants('owner-d', 60_000, 100)).filter((row) =>
      row.tracking_number.startsWith('LOST'),
    );
    expect(rows).toHaveLength(3);
    // Another worker took the middle row over (its lease ran out while this one was slow).
    await webhookEvents(connection).updateOne(
      { id: rows[1]!.id },
      { $set: { lease_owner: 'owner-e' } },
    );

    const finishes = finishQueue(inbox, outbox);
    const outcome: Outcome = {
      result: 'failed',
      status_from: null,
      status_to: null,
      error_message: 'Could not be applied: test',
    };
    const written = await Promise.all(
      rows.map((row: WebhookEventDocument) =>
        finishes.add({
          owner: 'owner-d',
          row,
          outcome,
          durationMs: 5,
          entries: webhookActivity({ ...row, ...outcome }, row.attempts, new Date()),
        }),
      ),
    );
    expect(written).toEqual([true, false, true]);

    const after = await webhookEvents(connection)
      .find({ id: { $in: rows.map((row) => row.id) } })
      .sort({ id: 1 })
      .toArray();
    expect(after.map((row) => row.state)).toEqual(['done', 'received', 'done']);
    expect(after[0]).toMatchObject({ result: 'failed', processing_duration_ms: 5 });
    expect(after[1]).toMatchObject({ result: null, lease_owner: 'owner-e' });

    const entries = await outbox.model
      .find({ event_id: { $regex: '^webhook-ingest\\.webhook-event\\.' } })
      .lean<Array<{ event_id: string; state: string }>>();
    const named = (row: WebhookEventDocument) =>
      `webhook-ingest.webhook-event.${row.id}.${row.attempts}`;
    expect(entries.map((entry) => entry.event_id).sort()).toEqual(
      [named(rows[0]!), named(rows[2]!)].sort(),
    );
    expect(entries.every((entry) => entry.state === 'ready')).toBe(true);
  });
});
