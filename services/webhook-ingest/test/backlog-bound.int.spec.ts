import { status } from '@grpc/grpc-js';
import { documentsExamined } from '@inventory/local-infra';
import { describeCallError } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import { WebhookEventRepository } from '../src/store/webhook-event-repository.js';
import { connect, eventually, finished, ingest, newToken, webhookEvents } from './harness.js';
import { useIngestSuite } from './ingest-suite.js';
import { SIM_KEY } from './provider-pushes.js';

const TENANT = 'tenant-backlog-bound';
const INSTANCE = 61;
const LIMIT = 3;

/**
 * Pushes arriving faster than the job finishes them must not grow the log without end (ADR 0729):
 * at the bound ingest refuses UNAVAILABLE (the gateway's 503, which the provider retries) and
 * stores nothing; once the job catches up, the retried push is taken.
 */
describe('webhook-ingest: the backlog bound', () => {
  const suite = useIngestSuite({
    WEBHOOK_BACKLOG_LIMIT: String(LIMIT),
    WEBHOOK_BACKLOG_CHECK_MS: '25',
    // The hung applies below stay hung until released, never cut short by a deadline.
    GRPC_CLIENT_DEADLINE_MS: '120000',
  });

  const metric = (name: string) => suite.service.metrics.registry.getSingleMetricAsString(name);
  /** A gauge's one value, as a scrape would read it (its `collect` runs). */
  const gauge = async (name: string) =>
    (await suite.service.metrics.registry.getSingleMetric(name)!.get()).values[0]?.value;
  const backlogGauge = () => gauge('webhook_ingest_backlog');

  it('refuses pushes, storing nothing, while the waiting rows are at the bound, and takes them again once the job catches up', async () => {
    const token = await connect(suite.client, suite.h.fake, TENANT, INSTANCE, SIM_KEY);
    const waiting = ['1ZBACKLOG0001', '1ZBACKLOG0002', '1ZBACKLOG0003'];
    // parcel-tracking does not answer for these: their rows wait, as behind a slow job.
    for (const number of waiting) suite.h.fake.applyAnswers.set(number, ['hang']);
    const stored: number[] = [];
    for (const number of waiting) {
      const { body, sign } = await suite.pushes.signed(number);
      const answer = await ingest(suite.client, token, body, sign);
      expect(answer.rejection).toBe('');
      stored.push(answer.webhook_event_id);
    }
    await expect.poll(backlogGauge, { timeout: 10_000 }).toBe(LIMIT);
    expect(await gauge('webhook_ingest_backlog_limit')).toBe(LIMIT);

    const late = '1ZBACKLOG0004';
    const push = await suite.pushes.signed(late);
    const refusal = describeCallError(
      await ingest(suite.client, token, push.body, push.sign).catch((error: unknown) => error),
    );
    expect(refusal).toMatchObject({
      code: status.UNAVAILABLE,
      reason: 'webhook_backlog_full',
      message: 'Too many webhooks are waiting to be processed; retry later.',
    });
    // A malformed push is refused the same way, not stored as failed: nothing is written at all.
    const malformed = describeCallError(
      await ingest(suite.client, token, '{"event":').catch((error: unknown) => error),
    );
    expect(malformed).toMatchObject({ code: status.UNAVAILABLE, reason: 'webhook_backlog_full' });
    const events = webhookEvents(suite.service.mongo);
    expect(await events.countDocuments({ tenant_id: TENANT })).toBe(LIMIT);
    // An unknown address stays unknown: the bound does not tell strangers anything new.
    const unknown = describeCallError(
      await ingest(suite.client, newToken(), push.body).catch((error: unknown) => error),
    );
    expect(unknown.code).toBe(status.NOT_FOUND);
    expect(await metric('webhook_ingest_received_total')).toMatch(
      /webhook_ingest_received_total\{result="backlog_full",service="webhook-ingest"\} 2$/m,
    );

    // parcel-tracking answers again: the job finishes the waiting rows, and the provider's retry
    // of the refused push is taken and processed.
    for (const number of waiting) suite.h.fake.applyAnswers.delete(number);
    suite.h.fake.releaseHung();
    const accepted = await eventually(() => ingest(suite.client, token, push.body, push.sign));
    expect(accepted.rejection).toBe('');
    for (const id of [...stored, accepted.webhook_event_id])
      expect((await finished(suite.service, id)).result).toBe('processed');
    expect(await events.countDocuments({ tenant_id: TENANT, tracking_number: late })).toBe(1);
    await expect.poll(backlogGauge, { timeout: 10_000 }).toBe(0);
  });

  it('counts the waiting rows up to the bound only, however long the backlog', async () => {
    const events = webhookEvents(suite.service.mongo);
    // Rows leased elsewhere for an hour: waiting, and out of this job's reach meanwhile.
    const leasedUntil = new Date(Date.now() + 3_600_000);
    await events.insertMany(
      Array.from({ length: 500 }, (_, index) => ({
        id: 900_000 + index,
        dedupe_key: `backlog-count-${index}`,
        tenant_id: TENANT,
        state: 'received' as const,
        lease_until: leasedUntil,
      })) as never[],
    );
    try {
      const examined = () => documentsExamined(suite.service.mongo.db!);
      const before = await examined();
      expect(
        await new WebhookEventRepository(suite.service.mongo).waitingCountAcrossTenants(LIMIT),
      ).toBe(LIMIT);
      // The service's own counts run meanwhile, each bounded alike; never the 500 rows.
      expect((await examined()) - before).toBeLessThan(100);
      await expect.poll(backlogGauge, { timeout: 10_000 }).toBe(LIMIT);
    } finally {
      await events.deleteMany({ dedupe_key: /^backlog-count-/ });
    }
  });
});
