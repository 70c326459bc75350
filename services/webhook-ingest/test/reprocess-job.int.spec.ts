import { describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import type { WebhookEventDocument } from '../src/store/webhook-event.js';
import { activityEvents, as, clientOf, eventually, webhookEvents } from './harness.js';
import { useIngestSuite } from './ingest-suite.js';
import { inTransit } from './rows.js';

const INSTANCE = 44;
const ROWS = 1_000;
/** A generous cap for a job of 1,000 rows on a busy machine (the embedded MongoDB scans). */
const JOB_TEST_MS = 180_000;

/** `count` failed rows of the tenant, as the processing job leaves them, ids from `firstId`. */
function failedRows(tenant: string, firstId: number, count: number, prefix: string) {
  const now = new Date();
  return Array.from({ length: count }, (_, index): WebhookEventDocument => {
    const number = `${prefix}${String(index).padStart(6, '0')}`;
    return {
      id: firstId + index,
      tenant_id: tenant,
      integration_instance_id: INSTANCE,
      provider: 'parcel-tracking',
      received_at: now,
      event_type: 'TRACKING_UPDATED',
      tracking_number: number,
      status_from: null,
      status_to: null,
      summary: null,
      payload: null,
      update: inTransit(number),
      raw_body: '{}',
      content_type: 'application/json',
      signature: null,
      signature_state: 'absent',
      dedupe_key: `${tenant}:${firstId + index}`,
      duplicate_of: null,
      state: 'done',
      result: 'failed',
      error_message: 'Could not be applied after 5 attempts: unavailable',
      processing_duration_ms: 5,
      attempts: 5,
      lease_owner: null,
      lease_until: new Date(0),
      created_at: now,
      updated_at: now,
    };
  });
}

describe('webhook-ingest: bulk reprocess jobs (ADR 0230)', () => {
  const suite = useIngestSuite({
    WEBHOOK_REPROCESS_POLL_MS: '50',
    WEBHOOK_REPROCESS_LEASE_MS: '2000',
    WEBHOOK_LEASE_MS: '2000',
  });

  const start = (tenant: string, results: string[] = ['failed']) =>
    as(tenant, () =>
      suite.client.call.startReprocessJob({
        integration_instance_id: INSTANCE,
        history_instance_ids: [],
        event_types: [],
        results,
        tracking_number: '',
      }),
    );
  const progress = (tenant: string, id: string, instance = INSTANCE) =>
    as(tenant, () => suite.client.call.getReprocessJob({ integration_instance_id: instance, id }));
  /** The most rows seen waiting for their result at once while polling a job. */
  let mostWaiting = 0;
  const completed = (tenant: string, id: string) =>
    eventually(async () => {
      const { job } = await progress(tenant, id);
      mostWaiting = Math.max(mostWaiting, (job?.queued ?? 0) - (job?.done ?? 0));
      if (job?.status !== 'completed') throw new Error(`job at ${job?.done}/${job?.total}`);
      return job;
    }, 150_000);

  /** Nothing doubled: each row processed once more (its generation 1), one activity entry each. */
  async function expectEachAppliedOnce(tenant: string, firstId: number) {
    const rows = await webhookEvents(suite.service.mongo).find({ tenant_id: tenant }).toArray();
    expect(rows).toHaveLength(ROWS);
    expect(rows.every((row) => row.result === 'processed' && row.generation === 1)).toBe(true);
    const calls = suite.h.fake.applyCalls.filter((call) => call.tenantId === tenant);
    expect(calls.every((call) => call.request.generation === 1)).toBe(true);
    expect(new Set(calls.map((call) => call.request.webhook_event_id)).size).toBe(ROWS);
    const activity = await eventually(async () => {
      const found = await activityEvents(suite.service, tenant);
      expect(found.length).toBeGreaterThanOrEqual(ROWS);
      return found;
    }, 30_000);
    const perRow = new Map<unknown, number>();
    for (const entry of activity)
      perRow.set(
        entry.properties.webhook_event_id,
        (perRow.get(entry.properties.webhook_event_id) ?? 0) + 1,
      );
    expect(perRow.size).toBe(ROWS);
    expect([...perRow.values()].every((count) => count === 1)).toBe(true);
    expect(Math.min(...(perRow.keys() as Iterable<number>))).toBe(firstId);
  }

  it(
    `reprocesses ${ROWS} failed rows of a filter: progress reaches ${ROWS}, each row applied once`,
    async () => {
      const tenant = 'tenant-bulk';
      const firstId = 5_000_000;
      await webhookEvents(suite.service.mongo).insertMany(
        failedRows(tenant, firstId, ROWS, 'BULK'),
      );
      const { job } = await start(tenant);
      expect(job).toMatchObject({
        status: 'running',
        total: ROWS,
        integration_instance_id: INSTANCE,
      });
      const done = await completed(tenant, job!.id);
      expect(done).toMatchObject({ total: ROWS, queued: ROWS, done: ROWS });
      expect(done.finished_at).toBeInstanceOf(Date);
      // Queued as the processing job keeps up: at most 500 rows waiting, plus one step of 100.
      expect(mostWaiting).toBeGreaterThan(0);
      expect(mostWaiting).toBeLessThanOrEqual(600);
      await expectEachAppliedOnce(tenant, firstId);
      // Another tenant, or another instance, finds no such job.
      await expect(progress('tenant-other', job!.id)).rejects.toMatchObject({ code: 5 });
      await expect(progress(tenant, job!.id, INSTANCE + 1)).rejects.toMatchObject({ code: 5 });
      // A filter on results a reprocess never takes is refused.
      await expect(start(tenant, ['processed'])).rejects.toMatchObject({ code: 3 });
    },
    JOB_TEST_MS,
  );

  it(
    'a job survives a restart of the service halfway and finishes, nothing doubled',
    async () => {
      const tenant = 'tenant-bulk-restart';
      const firstId = 6_000_000;
      await webhookEvents(suite.service.mongo).insertMany(failedRows(tenant, firstId, ROWS, 'RST'));
      // One row's apply hangs: the job cannot complete before the restart.
      const stuck = `RST${String(ROWS / 2).padStart(6, '0')}`;
      suite.h.fake.applyAnswers.set(stuck, ['hang']);
      const { job } = await start(tenant);
      await eventually(async () => {
        const { job: now } = await progress(tenant, job!.id);
        expect(now!.done).toBeGreaterThan(0);
        // Halfway: the stuck row keeps the job from completing.
        expect(now).toMatchObject({ status: 'running' });
        expect(now!.done).toBeLessThan(ROWS);
      }, 30_000);
      await suite.service.stop();
      suite.h.fake.applyAnswers.delete(stuck);
      suite.h.fake.releaseHung();
      suite.client.close();
      suite.service = await bootstrap(suite.h.env);
      suite.client = clientOf(suite.service.grpc!.address);
      const done = await completed(tenant, job!.id);
      expect(done).toMatchObject({ total: ROWS, queued: ROWS, done: ROWS });
      await expectEachAppliedOnce(tenant, firstId);
    },
    JOB_TEST_MS,
  );
});
