import { status } from '@grpc/grpc-js';
import { AppError } from '@inventory/platform';
import { beforeAll, describe, expect, it } from 'vitest';
import { INSTANCE_GONE, IGNORED_REASONS } from '../src/use-cases/process-webhook-event.js';
import { answer, TrackingUpdateOutcome } from './fake-parcel-tracking.js';
import { activityEvents, connect, eventually, finished, ingest } from './harness.js';
import { useIngestSuite } from './ingest-suite.js';
import { SIM_KEY } from './provider-pushes.js';

const TENANT = 'tenant-proc';
const INSTANCE = 41;

describe('webhook-ingest: the processing job (fake parcel-tracking)', () => {
  const suite = useIngestSuite();
  let token: string;

  beforeAll(async () => {
    token = await connect(suite.client, suite.h.fake, TENANT, INSTANCE, SIM_KEY);
  });

  it('processes a signed provider push into one row with every field, and one webhook_processed activity', async () => {
    const number = '1Z999AA10000000001';
    const { body, sign } = await suite.pushes.signed(number, 2);
    const stored = await ingest(suite.client, token, body, sign);
    expect(stored).toMatchObject({ rejection: '', message: '', violations: [] });
    const row = await finished(suite.service, stored.webhook_event_id);
    expect(row).toMatchObject({
      tenant_id: TENANT,
      integration_instance_id: INSTANCE,
      event_type: 'TRACKING_UPDATED',
      tracking_number: number,
      payload: {
        event: 'TRACKING_UPDATED',
        data: {
          number,
          carrier: 100002,
          track_info: {
            latest_status: { status: 'InTransit', sub_status: 'InTransit_PickedUp' },
          },
        },
      },
      status_from: 'in_transit',
      status_to: 'delivered',
      summary: 'in_transit → delivered',
      result: 'processed',
      error_message: null,
      signature_state: 'valid',
    });
    expect(row.processing_duration_ms).toBeGreaterThanOrEqual(0);
    expect(row.received_at).toBeInstanceOf(Date);
    expect(row.updated_at.getTime()).toBeGreaterThanOrEqual(row.created_at.getTime());
    // What parcel-tracking was asked to apply, keyed by the row id (its idempotency key).
    const [call] = suite.h.fake.callsFor(row.id);
    expect(call).toMatchObject({
      tenantId: TENANT,
      request: {
        integration_instance_id: INSTANCE,
        webhook_event_id: row.id,
        update: {
          event_type: 'TRACKING_UPDATED',
          tracking_number: number,
          carrier_code: 100002,
          provider_status: 'InTransit',
          provider_sub_status: 'InTransit_PickedUp',
          latest_event_description: expect.any(String),
        },
      },
    });
    expect(call!.request.update!.latest_event_at).toBeInstanceOf(Date);
    expect(call!.request.update!.picked_up_at).toBeInstanceOf(Date);
    expect(call!.request.update!.estimated_delivery_at).toBeInstanceOf(Date);
    const activity = await eventually(async () => {
      const found = (await activityEvents(suite.service, TENANT)).filter(
        (entry) => entry.properties.webhook_event_id === row.id,
      );
      expect(found).toHaveLength(1);
      return found[0]!;
    });
    expect(activity).toMatchObject({
      event: 'webhook_processed',
      integration_instance_id: INSTANCE,
      properties: {
        integration_instance_id: INSTANCE,
        tracking_number: number,
        result: 'processed',
        status_from: 'in_transit',
        status_to: 'delivered',
      },
    });
  });

  it('stores a provider retry as one more row, ignored as a duplicate, and applies it once (issue 18 #12)', async () => {
    const number = '1Z999AA10000000002';
    const { body, sign } = await suite.pushes.signed(number, 1);
    const first = await ingest(suite.client, token, body, sign);
    const retry = await ingest(suite.client, token, body, sign);
    expect(retry.rejection).toBe('');
    expect(retry.webhook_event_id).not.toBe(first.webhook_event_id);
    const original = await finished(suite.service, first.webhook_event_id);
    const duplicate = await finished(suite.service, retry.webhook_event_id);
    expect(original.result).toBe('processed');
    expect(duplicate).toMatchObject({
      result: 'ignored',
      duplicate_of: first.webhook_event_id,
      tracking_number: number,
      error_message: expect.stringContaining('Duplicate of webhook event'),
    });
    // The next real change of the same shipment is not a duplicate.
    suite.pushes.advance(number);
    const next = await suite.pushes.push(number);
    const moved = await ingest(suite.client, token, next.body, next.sign);
    expect((await finished(suite.service, moved.webhook_event_id)).result).toBe('processed');
    expect(suite.h.fake.callsFor(retry.webhook_event_id)).toHaveLength(0);
    expect(suite.h.fake.callsFor(first.webhook_event_id)).toHaveLength(1);
  });

  it.each([
    [TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_UNKNOWN_NUMBER, 'unknown number'],
    [TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_STOPPED, 'stopped row'],
    [TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_DUPLICATE, 'repeated event'],
    [TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_STALE, 'out-of-order event'],
  ])(
    'ignores what parcel-tracking reports as outcome %s (%s), with the reason',
    async (outcome) => {
      const number = `1Z999AA1000000010${outcome}`;
      suite.h.fake.applyAnswers.set(number, [answer(outcome, 'delivered')]);
      const { body, sign } = await suite.pushes.signed(number, 1);
      const row = await finished(
        suite.service,
        (await ingest(suite.client, token, body, sign)).webhook_event_id,
      );
      expect(row).toMatchObject({
        result: 'ignored',
        status_from: 'delivered',
        status_to: 'delivered',
        summary: 'delivered → delivered',
        error_message: IGNORED_REASONS[outcome],
      });
    },
  );

  it('processes TRACKING_STOPPED as parcel-tracking applies it', async () => {
    const number = '1Z999AA10000000020';
    suite.h.fake.applyAnswers.set(number, [
      answer(TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_APPLIED, 'in_transit', 'in_transit'),
    ]);
    const { body, sign } = await suite.pushes.signed(number, 2, 'TRACKING_STOPPED');
    const row = await finished(
      suite.service,
      (await ingest(suite.client, token, body, sign)).webhook_event_id,
    );
    expect(row).toMatchObject({ event_type: 'TRACKING_STOPPED', result: 'processed' });
    expect(suite.h.fake.callsFor(row.id)[0]!.request.update!.event_type).toBe('TRACKING_STOPPED');
  });

  it('retries a failing apply a bounded number of times, then fails it with the reason and a webhook_failed activity', async () => {
    const number = '1Z999AA10000000030';
    suite.h.fake.applyAnswers.set(number, [
      new AppError(status.UNAVAILABLE, 'unavailable', 'tracking store is down'),
    ]);
    const { body, sign } = await suite.pushes.signed(number, 1);
    const row = await finished(
      suite.service,
      (await ingest(suite.client, token, body, sign)).webhook_event_id,
    );
    expect(row).toMatchObject({
      result: 'failed',
      attempts: 3,
      error_message: 'Could not be applied after 3 attempts: tracking store is down',
    });
    expect(suite.h.fake.callsFor(row.id)).toHaveLength(3);
    await eventually(async () => {
      const found = (await activityEvents(suite.service, TENANT)).filter(
        (entry) => entry.properties.webhook_event_id === row.id,
      );
      expect(found.map((entry) => entry.event)).toEqual(['webhook_failed']);
    });
  });

  it('recovers when a failure passes before the attempts run out', async () => {
    const number = '1Z999AA10000000031';
    suite.h.fake.applyAnswers.set(number, [
      new AppError(status.UNAVAILABLE, 'unavailable', 'blip'),
      answer(TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_APPLIED, 'pending', 'info_received'),
    ]);
    const { body, sign } = await suite.pushes.signed(number, 1);
    const row = await finished(
      suite.service,
      (await ingest(suite.client, token, body, sign)).webhook_event_id,
    );
    expect(row).toMatchObject({ result: 'processed', attempts: 2, error_message: null });
    expect(row.summary).toBe('pending → info_received');
  });

  it('fails at once what no retry can fix, and ignores rows of an instance that is gone', async () => {
    const refused = '1Z999AA10000000032';
    suite.h.fake.applyAnswers.set(refused, [
      new AppError(status.INVALID_ARGUMENT, 'validation_failed', 'event type not supported'),
    ]);
    const gone = '1Z999AA10000000033';
    suite.h.fake.applyAnswers.set(gone, [
      new AppError(status.NOT_FOUND, 'not_found', 'no instance'),
    ]);
    const a = await suite.pushes.signed(refused, 1);
    const b = await suite.pushes.signed(gone, 1);
    const refusedRow = await finished(
      suite.service,
      (await ingest(suite.client, token, a.body, a.sign)).webhook_event_id,
    );
    const goneRow = await finished(
      suite.service,
      (await ingest(suite.client, token, b.body, b.sign)).webhook_event_id,
    );
    expect(refusedRow).toMatchObject({
      result: 'failed',
      attempts: 1,
      error_message: 'Could not be applied: event type not supported',
    });
    expect(goneRow).toMatchObject({ result: 'ignored', error_message: INSTANCE_GONE });
  });
});
