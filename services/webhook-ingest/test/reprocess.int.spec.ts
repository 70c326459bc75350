import { status } from '@grpc/grpc-js';
import { AppError, describeCallError } from '@inventory/platform';
import { beforeAll, describe, expect, it } from 'vitest';
import { IGNORED_REASONS } from '../src/use-cases/process-webhook-event.js';
import { answer, TrackingUpdateOutcome } from './fake-parcel-tracking.js';
import {
  activityEvents,
  as,
  connect,
  eventually,
  finished,
  ingest,
  webhookEvents,
} from './harness.js';
import { useIngestSuite } from './ingest-suite.js';
import { SIM_KEY } from './provider-pushes.js';

const TENANT = 'tenant-reprocess';
const INSTANCE = 43;

const failedRow = (number: string) =>
  new AppError(status.INVALID_ARGUMENT, 'validation_failed', `refused ${number}`);

describe('webhook-ingest: reprocessing one row (ADR 0230)', () => {
  const suite = useIngestSuite();
  let token: string;

  beforeAll(async () => {
    token = await connect(suite.client, suite.h.fake, TENANT, INSTANCE, SIM_KEY);
  });

  const reprocess = (id: number, tenant = TENANT, instance = INSTANCE) =>
    as(tenant, () =>
      suite.client.call.reprocessWebhookEvent({
        integration_instance_id: instance,
        id,
        history_instance_ids: [],
      }),
    );
  const refusal = async (call: Promise<unknown>) =>
    describeCallError(
      await call.then(
        () => new Error('expected a refusal'),
        (error: unknown) => error,
      ),
    );
  /** The row once it has the result of its processing `generation`. */
  const finishedAgain = (id: number, generation: number) =>
    eventually(async () => {
      const row = await webhookEvents(suite.service.mongo).findOne({ id });
      if (row?.state !== 'done' || row.generation !== generation)
        throw new Error(`webhook event ${id} has no result for generation ${generation}`);
      return row;
    });

  it('a failed row reprocessed is applied again as its next generation, records its attempts and shows them in the log', async () => {
    const number = '1Z999AA10000000201';
    suite.h.fake.applyAnswers.set(number, [failedRow(number)]);
    const { body, sign } = await suite.pushes.signed(number, 2);
    const { webhook_event_id: id } = await ingest(suite.client, token, body, sign);
    const failed = await finished(suite.service, id);
    expect(failed).toMatchObject({ result: 'failed', attempts: 1 });

    suite.h.fake.applyAnswers.delete(number);
    const { event } = await reprocess(id);
    expect(event).toMatchObject({ id, result: 'failed', reprocessing: true, reprocess_count: 1 });
    const row = await finishedAgain(id, 1);
    expect(row).toMatchObject({
      result: 'processed',
      status_from: 'in_transit',
      status_to: 'delivered',
      error_message: null,
      attempts: 2,
      generation: 1,
    });
    // parcel-tracking was asked twice: the first processing (generation 0, sent as absent), then
    // the reprocess, a new key for its idempotency.
    expect(suite.h.fake.callsFor(id).map((call) => call.request.generation ?? 0)).toEqual([0, 1]);
    const { events } = await as(TENANT, () =>
      suite.client.call.listWebhookEvents({
        integration_instance_id: INSTANCE,
        event_types: [],
        results: [],
        tracking_number: number,
        sort: [],
        history_instance_ids: [],
        tracking_number_exact: true,
      }),
    );
    expect(events).toEqual([
      expect.objectContaining({
        id,
        result: 'processed',
        attempts: 2,
        reprocess_count: 1,
        reprocessing: false,
      }),
    ]);
    // One activity entry per result: the failure, then the processing.
    const activity = await eventually(async () => {
      const found = (await activityEvents(suite.service, TENANT)).filter(
        (entry) => entry.properties.webhook_event_id === id,
      );
      expect(found).toHaveLength(2);
      return found;
    });
    expect(activity.map((entry) => entry.event).sort()).toEqual([
      'webhook_failed',
      'webhook_processed',
    ]);
  });

  it('an ignored row (unknown number) is applied on reprocess once the number is tracked', async () => {
    const number = '1Z999AA10000000202';
    suite.h.fake.applyAnswers.set(number, [
      answer(TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_UNKNOWN_NUMBER, ''),
    ]);
    const { body, sign } = await suite.pushes.signed(number, 1);
    const { webhook_event_id: id } = await ingest(suite.client, token, body, sign);
    expect(await finished(suite.service, id)).toMatchObject({
      result: 'ignored',
      error_message: IGNORED_REASONS[TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_UNKNOWN_NUMBER],
    });
    // The number added: parcel-tracking now applies it.
    suite.h.fake.applyAnswers.set(number, [
      answer(TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_APPLIED, 'pending', 'in_transit'),
    ]);
    await reprocess(id);
    expect(await finishedAgain(id, 1)).toMatchObject({
      result: 'processed',
      summary: 'pending → in_transit',
      error_message: null,
    });
  });

  it('an older update reprocessed is ignored as stale: the status machine never moves a row back', async () => {
    const number = '1Z999AA10000000203';
    suite.h.fake.applyAnswers.set(number, [failedRow(number)]);
    const { body, sign } = await suite.pushes.signed(number, 1);
    const { webhook_event_id: id } = await ingest(suite.client, token, body, sign);
    await finished(suite.service, id);
    suite.h.fake.applyAnswers.set(number, [
      answer(TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_STALE, 'delivered', 'delivered'),
    ]);
    await reprocess(id);
    expect(await finishedAgain(id, 1)).toMatchObject({
      result: 'ignored',
      status_from: 'delivered',
      status_to: 'delivered',
      error_message: IGNORED_REASONS[TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_STALE],
    });
  });

  it('refuses a processed row, a row waiting for its result and one with nothing to apply; another tenant or instance finds nothing', async () => {
    const number = '1Z999AA10000000204';
    const { body, sign } = await suite.pushes.signed(number, 1);
    const { webhook_event_id: id } = await ingest(suite.client, token, body, sign);
    expect(await finished(suite.service, id)).toMatchObject({ result: 'processed' });
    const processed = await refusal(reprocess(id));
    expect(processed).toMatchObject({
      code: status.FAILED_PRECONDITION,
      reason: 'webhook_not_reprocessable',
    });

    // Refused at ingest (not JSON): stored failed, with no update to apply.
    const { webhook_event_id: malformed } = await ingest(suite.client, token, 'not json');
    expect(await finished(suite.service, malformed)).toMatchObject({ result: 'failed' });
    expect((await refusal(reprocess(malformed))).code).toBe(status.FAILED_PRECONDITION);

    const other = '1Z999AA10000000205';
    suite.h.fake.applyAnswers.set(other, [failedRow(other)]);
    const push = await suite.pushes.signed(other, 1);
    const { webhook_event_id: failed } = await ingest(suite.client, token, push.body, push.sign);
    await finished(suite.service, failed);
    suite.h.fake.applyAnswers.set(other, ['hang']);
    await reprocess(failed);
    const pending = await refusal(reprocess(failed));
    expect(pending).toMatchObject({
      code: status.FAILED_PRECONDITION,
      reason: 'webhook_reprocess_pending',
    });

    expect((await refusal(reprocess(failed, 'tenant-other'))).code).toBe(status.NOT_FOUND);
    expect((await refusal(reprocess(failed, TENANT, INSTANCE + 1))).code).toBe(status.NOT_FOUND);
    expect((await refusal(reprocess(987_654_321))).code).toBe(status.NOT_FOUND);
    suite.h.fake.applyAnswers.delete(other);
    suite.h.fake.releaseHung();
    expect(await finishedAgain(failed, 1)).toMatchObject({ generation: 1 });
  });
});
