import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectMongo, ensureIndexes } from '@inventory/platform';
import type { Outcome } from '../src/store/webhook-event.js';
import { WebhookEventRepository } from '../src/store/webhook-event-repository.js';
import { WebhookTokenRepository } from '../src/store/webhook-token-repository.js';
import { WebhookReprocessRepository } from '../src/store/webhook-reprocess-repository.js';
import { ReprocessJobRepository } from '../src/store/reprocess-job-repository.js';
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
  let reprocess: WebhookReprocessRepository;
  let jobs: ReprocessJobRepository;

  beforeAll(async () => {
    infra = await startTestInfra({ nats: false, redis: false });
    connection = await connectMongo(infra.mongoUrl, infra.dbName('webhook_ingest_isolation'));
    events = new WebhookEventRepository(connection);
    tokens = new WebhookTokenRepository(connection);
    reprocess = new WebhookReprocessRepository(connection);
    jobs = new ReprocessJobRepository(connection);
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

  it("neither finds nor puts back another tenant's row, in one reprocess or a job's step; reads no other tenant's job", async () => {
    const instance = INSTANCE + 2;
    const id = await events.storeFinished(await events.newId(), event(A, 'A3', instance), failed);
    // A row with something to apply, as the processing job leaves a failed one.
    await webhookEvents(connection).updateOne({ id }, { $set: { update: inTransit('A3') } });
    const row = (await reprocess.findInInstances(A, [instance], id))!;
    expect(await reprocess.findInInstances(B, [instance], id)).toBeNull();
    expect(await reprocess.reprocessOne(B, row)).toBeNull();
    const query = { eventTypes: [], results: [], trackingNumber: '' };
    expect(await reprocess.newestId(B, [instance], query)).toBe(0);
    expect(await reprocess.newestId(A, [instance], query)).toBe(id);
    expect(
      await reprocess.reprocessStep(
        B,
        { id: 'job-b', instanceIds: [instance], query, afterId: 0, upToId: id },
        10,
      ),
    ).toBeNull();
    expect(await webhookEvents(connection).findOne({ id })).toMatchObject({
      state: 'done',
      result: 'failed',
    });
    const now = new Date();
    await jobs.create({
      id: 'job-a',
      tenant_id: A,
      integration_instance_id: instance,
      instance_ids: [instance],
      filter: {
        event_types: [],
        results: [],
        tracking_number: '',
        received_from: null,
        received_to: null,
      },
      up_to_id: id,
      after_id: 0,
      total: 1,
      queued: 0,
      done: 0,
      phase: 'queueing',
      lease_owner: null,
      lease_until: now,
      created_at: now,
      updated_at: now,
      finished_at: null,
    });
    expect(await jobs.find(B, instance, 'job-a')).toBeNull();
    expect(await jobs.step({ tenant_id: B, id: 'job-a' }, 'x', 1000, { after_id: 5 })).toBe(false);
    expect(await jobs.find(A, instance, 'job-a')).toMatchObject({ after_id: 0 });
  });

  it("does not unregister another tenant's token, which still resolves to its owner", async () => {
    const token = `wh_${'i'.repeat(43)}`;
    await tokens.register(A, token, 'parcel-tracking', INSTANCE);
    expect(await tokens.unregister(B, token)).toBe(false);
    expect(await tokens.resolveAcrossTenants(token)).toMatchObject({ tenant_id: A });
  });
});
