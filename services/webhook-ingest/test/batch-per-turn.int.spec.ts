import { status } from '@grpc/grpc-js';
import { AppError } from '@inventory/platform';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect, finished, PROVIDER } from './harness.js';
import { answer, TrackingUpdateOutcome } from './fake-parcel-tracking.js';
import { useIngestSuite } from './ingest-suite.js';
import { SIM_KEY } from './provider-pushes.js';

const TENANT = 'tenant-batch-turn';
const INSTANCE = 46;

/**
 * The pushes of one IngestWebhooks call stay together down the pipeline (ADR 0746): one signature
 * check call and one apply call for all of them, where the first of them used to go alone. One
 * bad update among them is refused on its own, and every row gets its own result.
 */
describe('webhook-ingest: one batch per turn (fake parcel-tracking)', () => {
  const suite = useIngestSuite();
  let token: string;

  beforeAll(async () => {
    token = await connect(suite.client, suite.h.fake, TENANT, INSTANCE, SIM_KEY);
  });

  it('checks and applies the pushes of one call in one call each, a refused one failing alone', async () => {
    const numbers = Array.from({ length: 6 }, (_, n) => `1Z999AA1000000${String(600 + n)}`);
    const pushes = [];
    for (const number of numbers) pushes.push(await suite.pushes.signed(number, 1));
    const [refused, unknown] = numbers;
    suite.h.fake.applyAnswers.set(refused!, [
      new AppError(status.INVALID_ARGUMENT, 'validation_failed', 'event type not supported'),
    ]);
    suite.h.fake.applyAnswers.set(unknown!, [
      answer(TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_UNKNOWN_NUMBER, ''),
    ]);
    const checksBefore = suite.h.fake.verifyBatches.length;
    const appliesBefore = suite.h.fake.applyBatches.length;

    const { results } = await suite.client.call.ingestWebhooks({
      webhooks: pushes.map(({ body, sign }) => ({
        token,
        provider: PROVIDER,
        raw_body: Buffer.from(body),
        content_type: 'application/json',
        signature: sign,
      })),
    });
    const ids = results.map((result) => {
      expect(result.answer).toMatchObject({ rejection: '' });
      return result.answer!.webhook_event_id;
    });
    const rows = await Promise.all(ids.map((id) => finished(suite.service, id)));

    expect(rows.map((row) => row.result)).toEqual([
      'failed',
      'ignored',
      'processed',
      'processed',
      'processed',
      'processed',
    ]);
    expect(rows[0]!.error_message).toMatch(/event type not supported/);
    expect(rows.map((row) => row.tracking_number)).toEqual(numbers);
    expect(suite.h.fake.verifyBatches.slice(checksBefore)).toEqual([6]);
    expect(suite.h.fake.applyBatches.slice(appliesBefore)).toEqual([ids]);
    // Each row was applied once: a refusal is final, and no row waited for a claim.
    for (const id of ids) expect(suite.h.fake.callsFor(id)).toHaveLength(1);
  });
});
