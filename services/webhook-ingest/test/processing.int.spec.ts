import { status } from '@grpc/grpc-js';
import { AppError, describeCallError } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { INSTANCE_GONE, IGNORED_REASONS } from '../src/use-cases/process-webhook-event.js';
import { answer, TrackingUpdateOutcome } from './fake-parcel-tracking.js';
import {
  activityEvents,
  as,
  clientOf,
  connect,
  eventually,
  finished,
  ingest,
  startHarness,
  type Service,
  webhookEvents,
} from './harness.js';
import { ProviderPushes, SIM_KEY } from './provider-pushes.js';

const TENANT = 'tenant-proc';
const INSTANCE = 41;

describe('webhook-ingest: ingest rules and the processing job (fake parcel-tracking)', () => {
  let h: Awaited<ReturnType<typeof startHarness>>;
  let service: Service;
  let client: ReturnType<typeof clientOf>;
  let pushes: ProviderPushes;
  let token: string;

  beforeAll(async () => {
    h = await startHarness();
    service = await bootstrap(h.env);
    client = clientOf(service.grpc!.address);
    pushes = await ProviderPushes.start();
    token = await connect(client, h.fake, TENANT, INSTANCE, SIM_KEY);
  });
  afterAll(async () => {
    client?.close();
    await pushes?.stop();
    await service?.stop();
    await h?.fake.stop();
    await h?.infra.stop();
  });

  async function signedPush(number: string, steps = 1, event?: 'TRACKING_STOPPED') {
    await pushes.register(number);
    for (let step = 0; step < steps; step++) pushes.advance(number);
    return pushes.push(number, event);
  }

  it('processes a signed provider push into one row with every field, and one webhook_processed activity', async () => {
    const number = '1Z999AA10000000001';
    const { body, sign } = await signedPush(number, 2);
    const stored = await ingest(client, token, body, sign);
    expect(stored).toMatchObject({ rejection: '', message: '', violations: [] });
    const row = await finished(service, stored.webhook_event_id);
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
    const [call] = h.fake.callsFor(row.id);
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
      const found = (await activityEvents(service, TENANT)).filter(
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
    const { body, sign } = await signedPush(number, 1);
    const first = await ingest(client, token, body, sign);
    const retry = await ingest(client, token, body, sign);
    expect(retry.rejection).toBe('');
    expect(retry.webhook_event_id).not.toBe(first.webhook_event_id);
    const original = await finished(service, first.webhook_event_id);
    const duplicate = await finished(service, retry.webhook_event_id);
    expect(original.result).toBe('processed');
    expect(duplicate).toMatchObject({
      result: 'ignored',
      duplicate_of: first.webhook_event_id,
      tracking_number: number,
      error_message: expect.stringContaining('Duplicate of webhook event'),
    });
    // The next real change of the same shipment is not a duplicate.
    pushes.advance(number);
    const next = await pushes.push(number);
    const moved = await ingest(client, token, next.body, next.sign);
    expect((await finished(service, moved.webhook_event_id)).result).toBe('processed');
    expect(h.fake.callsFor(retry.webhook_event_id)).toHaveLength(0);
    expect(h.fake.callsFor(first.webhook_event_id)).toHaveLength(1);
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
      h.fake.applyAnswers.set(number, [answer(outcome, 'delivered')]);
      const { body, sign } = await signedPush(number, 1);
      const row = await finished(
        service,
        (await ingest(client, token, body, sign)).webhook_event_id,
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
    h.fake.applyAnswers.set(number, [
      answer(TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_APPLIED, 'in_transit', 'in_transit'),
    ]);
    const { body, sign } = await signedPush(number, 2, 'TRACKING_STOPPED');
    const row = await finished(service, (await ingest(client, token, body, sign)).webhook_event_id);
    expect(row).toMatchObject({ event_type: 'TRACKING_STOPPED', result: 'processed' });
    expect(h.fake.callsFor(row.id)[0]!.request.update!.event_type).toBe('TRACKING_STOPPED');
  });

  it('retries a failing apply a bounded number of times, then fails it with the reason and a webhook_failed activity', async () => {
    const number = '1Z999AA10000000030';
    h.fake.applyAnswers.set(number, [
      new AppError(status.UNAVAILABLE, 'unavailable', 'tracking store is down'),
    ]);
    const { body, sign } = await signedPush(number, 1);
    const row = await finished(service, (await ingest(client, token, body, sign)).webhook_event_id);
    expect(row).toMatchObject({
      result: 'failed',
      attempts: 3,
      error_message: 'Could not be applied after 3 attempts: tracking store is down',
    });
    expect(h.fake.callsFor(row.id)).toHaveLength(3);
    await eventually(async () => {
      const found = (await activityEvents(service, TENANT)).filter(
        (entry) => entry.properties.webhook_event_id === row.id,
      );
      expect(found.map((entry) => entry.event)).toEqual(['webhook_failed']);
    });
  });

  it('recovers when a failure passes before the attempts run out', async () => {
    const number = '1Z999AA10000000031';
    h.fake.applyAnswers.set(number, [
      new AppError(status.UNAVAILABLE, 'unavailable', 'blip'),
      answer(TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_APPLIED, 'pending', 'info_received'),
    ]);
    const { body, sign } = await signedPush(number, 1);
    const row = await finished(service, (await ingest(client, token, body, sign)).webhook_event_id);
    expect(row).toMatchObject({ result: 'processed', attempts: 2, error_message: null });
    expect(row.summary).toBe('pending → info_received');
  });

  it('fails at once what no retry can fix, and ignores rows of an instance that is gone', async () => {
    const refused = '1Z999AA10000000032';
    h.fake.applyAnswers.set(refused, [
      new AppError(status.INVALID_ARGUMENT, 'validation_failed', 'event type not supported'),
    ]);
    const gone = '1Z999AA10000000033';
    h.fake.applyAnswers.set(gone, [new AppError(status.NOT_FOUND, 'not_found', 'no instance')]);
    const a = await signedPush(refused, 1);
    const b = await signedPush(gone, 1);
    const refusedRow = await finished(
      service,
      (await ingest(client, token, a.body, a.sign)).webhook_event_id,
    );
    const goneRow = await finished(
      service,
      (await ingest(client, token, b.body, b.sign)).webhook_event_id,
    );
    expect(refusedRow).toMatchObject({
      result: 'failed',
      attempts: 1,
      error_message: 'Could not be applied: event type not supported',
    });
    expect(goneRow).toMatchObject({ result: 'ignored', error_message: INSTANCE_GONE });
  });

  it('stores a bad signature as failed and refuses it; an unsigned push is processed', async () => {
    const number = '1Z999AA10000000040';
    const { body } = await signedPush(number, 1);
    for (const sign of ['0'.repeat(64), 'not-hex', '']) {
      const refused = await ingest(client, token, body, sign);
      expect(refused.rejection).toBe('invalid_signature');
      expect(refused.message).toMatch(/signature/);
      const row = await finished(service, refused.webhook_event_id);
      expect(row).toMatchObject({
        result: 'failed',
        signature_state: 'invalid',
        error_message: 'The webhook signature (sign header) does not match the body.',
        tracking_number: number,
      });
      expect(h.fake.callsFor(row.id)).toHaveLength(0);
    }
    // A forged push does not count as the provider's last sign of life.
    const before = await as(TENANT, () =>
      client.call.getWebhookSummary({ integration_instance_id: INSTANCE }),
    );
    const unsigned = await ingest(client, token, body);
    expect(unsigned.rejection).toBe('');
    const row = await finished(service, unsigned.webhook_event_id);
    expect(row).toMatchObject({ result: 'processed', signature_state: 'absent' });
    const after = await as(TENANT, () =>
      client.call.getWebhookSummary({ integration_instance_id: INSTANCE }),
    );
    expect(after.received_count).toBe(before.received_count + 1);
    expect(after.last_webhook_at).toEqual(row.received_at);
  });

  it.each([
    ['an empty body', '', 'body'],
    ['a non-JSON body', 'event=TRACKING_UPDATED', 'body'],
    ['a JSON array', '[1,2,3]', 'body'],
    ['JSON without event', '{"data":{"number":"1Z999AA10000000050"}}', 'event'],
    [
      'JSON without data.number',
      '{"event":"TRACKING_UPDATED","data":{"carrier":100002}}',
      'data.number',
    ],
    [
      'a body nested 2,000 levels deep',
      `{"event":"TRACKING_UPDATED","data":${'['.repeat(2000)}${']'.repeat(2000)}}`,
      'body',
    ],
    [
      'a body over the size limit',
      JSON.stringify({
        event: 'TRACKING_UPDATED',
        data: { number: '1Z1', pad: 'x'.repeat(300_000) },
      }),
      'body',
    ],
  ])('stores %s as failed with the reason and refuses it', async (_name, body, field) => {
    const refused = await ingest(client, token, body);
    expect(refused.rejection).toBe('invalid_body');
    expect(refused.violations.map((violation) => violation.field)).toEqual([field]);
    const row = await finished(service, refused.webhook_event_id);
    expect(row.result).toBe('failed');
    expect(row.error_message).toBe(refused.message);
    expect(row.error_message).not.toBe('');
    expect(row.raw_body.length).toBeLessThanOrEqual(64 * 1024);
    expect(h.fake.callsFor(row.id)).toHaveLength(0);
  });

  it('answers a batch (IngestWebhooks) webhook by webhook, as IngestWebhook would: stored, refused, unknown', async () => {
    // An instance of its own: these rows are stored concurrently, so their ids need not follow
    // their arrival, which the log test below reads for INSTANCE's rows.
    const own = await connect(client, h.fake, TENANT, INSTANCE + 2, SIM_KEY);
    const good = await signedPush('1Z999AA10000000777');
    const forged = await signedPush('1Z999AA10000000778');
    const webhook = (body: string, sign?: string, tokenOf = own) => ({
      token: tokenOf,
      provider: 'parcel-tracking',
      raw_body: Buffer.from(body),
      content_type: 'application/json',
      signature: sign,
    });
    const { results } = await client.call.ingestWebhooks({
      webhooks: [
        webhook(good.body, good.sign),
        webhook(forged.body, '0'.repeat(64)),
        webhook(good.body, good.sign, `wh_${'q'.repeat(43)}`),
        webhook('not json'),
      ],
    });
    expect(results[0]!.answer).toMatchObject({ rejection: '' });
    expect(results[1]!.answer).toMatchObject({ rejection: 'invalid_signature' });
    expect(results[2]!.error).toMatchObject({ code: status.NOT_FOUND });
    expect(results[3]!.answer).toMatchObject({ rejection: 'invalid_body' });
    expect(results[3]!.answer!.violations.length).toBeGreaterThan(0);
    expect(await finished(service, results[0]!.answer!.webhook_event_id)).toMatchObject({
      result: 'processed',
      tracking_number: '1Z999AA10000000777',
    });
    for (const refused of [results[1]!, results[3]!])
      expect(await finished(service, refused.answer!.webhook_event_id)).toMatchObject({
        result: 'failed',
      });
  });

  it('stores nothing for an unknown or removed token', async () => {
    const removed = await connect(client, h.fake, TENANT, 77, SIM_KEY);
    await as(TENANT, () => client.call.unregisterToken({ token: removed }));
    const before = await webhookEvents(service.mongo).countDocuments({});
    for (const unknown of [removed, `wh_${'z'.repeat(43)}`]) {
      const failure = await ingest(client, unknown, '{}').then(
        () => undefined,
        (error: unknown) => describeCallError(error),
      );
      expect(failure?.code).toBe(status.NOT_FOUND);
    }
    // A live token on another tenant's address is unknown there.
    const elsewhere = await client.call
      .ingestWebhook({
        token,
        provider: 'parcel-tracking',
        raw_body: Buffer.from('{}'),
        content_type: 'application/json',
        tenant_id: 'tenant-other',
      })
      .then(
        () => undefined,
        (error: unknown) => describeCallError(error),
      );
    expect(elsewhere?.code).toBe(status.NOT_FOUND);
    expect(await webhookEvents(service.mongo).countDocuments({})).toBe(before);
  });

  it('lists finished rows with filters, sorts and pages, for the caller tenant only', async () => {
    const list = (request: Record<string, unknown>, tenantId = TENANT) =>
      as(tenantId, () =>
        client.call.listWebhookEvents({
          integration_instance_id: INSTANCE,
          event_types: [],
          results: [],
          tracking_number: '',
          sort: [],
          ...request,
        }),
      );
    await eventually(async () =>
      expect(await webhookEvents(service.mongo).countDocuments({ state: 'received' })).toBe(0),
    );
    const all = await list({ page: { page: 1, per_page: 1000 } });
    const total = await webhookEvents(service.mongo).countDocuments({
      tenant_id: TENANT,
      integration_instance_id: INSTANCE,
    });
    expect(all.page_info!.total).toBe(total);
    const ids = all.events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const failed = await list({ results: ['failed'] });
    expect(failed.events.every((event) => event.result === 'failed')).toBe(true);
    // Case-insensitive substring: the original, its retry and the next change of one shipment.
    const byNumber = await list({ tracking_number: 'aa10000000002' });
    expect(byNumber.events.map((event) => event.tracking_number)).toEqual([
      '1Z999AA10000000002',
      '1Z999AA10000000002',
      '1Z999AA10000000002',
    ]);
    expect(byNumber.events.map((event) => event.result).sort()).toEqual([
      'ignored',
      'processed',
      'processed',
    ]);
    const oldestFirst = await list({ sort: [{ field: 'received_at', descending: false }] });
    expect(oldestFirst.events[0]!.id).toBe(Math.min(...ids));
    expect(await list({ tracking_number: '.*' })).toMatchObject({ events: [] });
    expect((await list({}, 'tenant-other')).page_info!.total).toBe(0);
    const bad = await list({ results: ['done'] }).then(
      () => undefined,
      (error: unknown) => describeCallError(error),
    );
    expect(bad?.fieldViolations.map((violation) => violation.field)).toEqual(['filter.result']);
  });
});
