import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectMongo, ensureIndexes } from '@inventory/platform';
import type { Outcome } from '../src/store/webhook-event.js';
import { WebhookEventRepository } from '../src/store/webhook-event-repository.js';
import { WebhookTokenRepository } from '../src/store/webhook-token-repository.js';
import { webhookEvents } from './harness.js';
import { inTransit, receivedEvent } from './rows.js';

const [A, B] = ['tenant-iso-a', 'tenant-iso-b'];
const INSTANCE = 5;

// Each test stores rows on an instance of its own, so none sees another's rows.
const event = (tenantId: string, number: string, instanceId = INSTANCE) =>
  receivedEvent(tenantId, number, instanceId);

const failed: Outcome = {
  result: 'failed',
  status_from: null,
  status_to: null,
  error_message: 'Could not be applied: test',
};

/** Each repository, asked with tenant B's id, neither reads nor changes tenant A's rows. */
describe('webhook-ingest repositories keep tenants apart', () => {
  let infra: TestInfra;
  let connection: Connection;
  let events: WebhookEventRepository;
  let tokens: WebhookTokenRepository;

  beforeAll(async () => {
    infra = await startTestInfra({ nats: false, redis: false });
    connection = await connectMongo(infra.mongoUrl, infra.dbName('webhook_ingest_isolation'));
    events = new WebhookEventRepository(connection);
    tokens = new WebhookTokenRepository(connection);
    await ensureIndexes(connection);
  });
  afterAll(async () => {
    await connection?.close();
    await infra?.stop();
  });

  it("lists and summarises only the caller's rows", async () => {
    await events.storeFinished(await events.newId(), event(A, 'A1'), failed);
    const query = {
      eventTypes: [],
      results: [],
      trackingNumber: '',
      sort: [{ field: 'received_at', descending: true }],
      page: 1,
      perPage: 10,
    };
    expect((await events.list(A, [INSTANCE], query)).total).toBe(1);
    expect(await events.list(B, [INSTANCE], query)).toEqual({ rows: [], total: 0 });
    expect(await events.summary(B, INSTANCE)).toEqual({ last_webhook_at: null });
    expect((await events.summary(A, INSTANCE)).last_webhook_at).toBeInstanceOf(Date);
  });

  it("does not release or finish another tenant's leased row", async () => {
    const stored = await events.storeForProcessing(
      event(A, 'A2', INSTANCE + 1),
      inTransit('A2'),
      'A2:1',
      {
        owner: 'worker',
        ms: 60_000,
      },
    );
    const asB = { id: stored.id, tenant_id: B };
    await events.release(asB, 'worker', new Date(0), 'should not be written');
    expect(
      await events.finishMany([{ owner: 'worker', row: asB, outcome: failed, durationMs: 1 }], 't'),
    ).toBe(0);
    expect(await webhookEvents(connection).findOne({ id: stored.id })).toMatchObject({
      tenant_id: A,
      state: 'received',
      lease_owner: 'worker',
      error_message: null,
    });
  });

  it("does not unregister another tenant's token, which still resolves to its owner", async () => {
    const token = `wh_${'i'.repeat(43)}`;
    await tokens.register(A, token, 'parcel-tracking', INSTANCE);
    expect(await tokens.unregister(B, token)).toBe(false);
    expect(await tokens.resolveAcrossTenants(token)).toMatchObject({ tenant_id: A });
  });
});
