import { status } from '@grpc/grpc-js';
import { describeCallError } from '@inventory/platform';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, connect, finished, ingest, webhookEvents } from './harness.js';
import { useIngestSuite } from './ingest-suite.js';
import { SIM_KEY } from './provider-pushes.js';

const TENANT = 'tenant-rules';
const INSTANCE = 42;

/** What is stored, and answered, for a push that is forged, malformed or for an unknown token. */
describe('webhook-ingest: ingest rules (fake parcel-tracking)', () => {
  const suite = useIngestSuite();
  let token: string;

  beforeAll(async () => {
    token = await connect(suite.client, suite.h.fake, TENANT, INSTANCE, SIM_KEY);
  });

  it('stores a bad signature as failed and refuses it; an unsigned push is processed', async () => {
    const number = '1Z999AA10000000040';
    const { body } = await suite.pushes.signed(number, 1);
    const summary = () =>
      as(TENANT, () => suite.client.call.getWebhookSummary({ integration_instance_id: INSTANCE }));
    const beforeForged = await summary();
    for (const sign of ['0'.repeat(64), 'not-hex', '']) {
      const refused = await ingest(suite.client, token, body, sign);
      expect(refused.rejection).toBe('invalid_signature');
      expect(refused.message).toMatch(/signature/);
      const row = await finished(suite.service, refused.webhook_event_id);
      expect(row).toMatchObject({
        result: 'failed',
        signature_state: 'invalid',
        error_message: 'The webhook signature (sign header) does not match the body.',
        tracking_number: number,
      });
      expect(suite.h.fake.callsFor(row.id)).toHaveLength(0);
    }
    // A forged push is not the provider's last sign of life: the newest forged rows are passed over.
    expect(await summary()).toEqual(beforeForged);
    const unsigned = await ingest(suite.client, token, body);
    expect(unsigned.rejection).toBe('');
    const row = await finished(suite.service, unsigned.webhook_event_id);
    expect(row).toMatchObject({ result: 'processed', signature_state: 'absent' });
    expect((await summary()).last_webhook_at).toEqual(row.received_at);
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
    const refused = await ingest(suite.client, token, body);
    expect(refused.rejection).toBe('invalid_body');
    expect(refused.violations.map((violation) => violation.field)).toEqual([field]);
    const row = await finished(suite.service, refused.webhook_event_id);
    expect(row.result).toBe('failed');
    expect(row.error_message).toBe(refused.message);
    expect(row.error_message).not.toBe('');
    expect(row.raw_body.length).toBeLessThanOrEqual(64 * 1024);
    expect(suite.h.fake.callsFor(row.id)).toHaveLength(0);
  });

  it('answers a batch (IngestWebhooks) webhook by webhook, as IngestWebhook would: stored, refused, unknown', async () => {
    const own = await connect(suite.client, suite.h.fake, TENANT, INSTANCE + 2, SIM_KEY);
    const good = await suite.pushes.signed('1Z999AA10000000777');
    const forged = await suite.pushes.signed('1Z999AA10000000778');
    const webhook = (body: string, sign?: string, tokenOf = own) => ({
      token: tokenOf,
      provider: 'parcel-tracking',
      raw_body: Buffer.from(body),
      content_type: 'application/json',
      signature: sign,
    });
    const { results } = await suite.client.call.ingestWebhooks({
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
    expect(await finished(suite.service, results[0]!.answer!.webhook_event_id)).toMatchObject({
      result: 'processed',
      tracking_number: '1Z999AA10000000777',
    });
    for (const refused of [results[1]!, results[3]!])
      expect(await finished(suite.service, refused.answer!.webhook_event_id)).toMatchObject({
        result: 'failed',
      });
  });

  it('stores nothing for an unknown or removed token', async () => {
    const removed = await connect(suite.client, suite.h.fake, TENANT, 77, SIM_KEY);
    await as(TENANT, () => suite.client.call.unregisterToken({ token: removed }));
    const before = await webhookEvents(suite.service.mongo).countDocuments({});
    for (const unknown of [removed, `wh_${'z'.repeat(43)}`]) {
      const failure = await ingest(suite.client, unknown, '{}').then(
        () => undefined,
        (error: unknown) => describeCallError(error),
      );
      expect(failure?.code).toBe(status.NOT_FOUND);
    }
    // A live token on another tenant's address is unknown there.
    const elsewhere = await suite.client.call
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
    expect(await webhookEvents(suite.service.mongo).countDocuments({})).toBe(before);
  });
});
