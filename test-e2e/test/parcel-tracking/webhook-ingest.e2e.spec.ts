import { signBody } from '@inventory/provider-sim';
import { describe, expect, it } from 'vitest';
import {
  pushToInstance,
  trackingUpdatedPush as push,
  webhookLogOf,
} from '../../src/fixtures/parcel-webhooks.js';
import { GOOD_KEY, PREFIX } from './harness.js';
import { useParcelSystem } from './instance-suite.js';

const suite = useParcelSystem();

describe('inbound provider webhooks through the whole system', () => {
  it('refuses hostile bodies with 4xx (never 500), stores them as failed with the reason, and lists them', async () => {
    const { t, instance } = await suite.connected();
    const send = (rawBody: string, headers: Record<string, string> = {}) =>
      pushToInstance(suite.p.system.gatewayUrl, t, instance, rawBody, headers);
    const hostile: Array<[string, Record<string, string>]> = [
      ['', {}],
      ['', { 'content-type': 'text/plain' }],
      [`{"event":"TRACKING_UPDATED","data":${'['.repeat(2000)}${']'.repeat(2000)}}`, {}],
      ['{"data":{"number":"1Z999AA10123456784"}}', {}],
      ['<xml/>', { 'content-type': 'application/xml' }],
    ];
    for (const [body, headers] of hostile) {
      const answer = await send(body, headers);
      expect(answer.status, body.slice(0, 30)).toBe(422);
      expect(answer.body).toEqual({ message: expect.any(String), errors: expect.any(Object) });
    }
    const forged = await send(push('1Z999AA10123456784'), { sign: 'f'.repeat(64) });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ message: expect.stringContaining('signature') });

    const log = await t.request(
      'GET',
      `${PREFIX}/instances/${instance.id}/webhooks?filter[result]=failed&per_page=50`,
    );
    expect(log.status).toBe(200);
    expect(log.body.meta.total).toBe(hostile.length + 1);
    expect(log.body.data.every((row: { error_message: string }) => row.error_message)).toBe(true);
    // The spec types these as strings: empty, never null, when there is no transition or number.
    for (const row of log.body.data)
      expect(row).toMatchObject({
        status_from: '',
        status_to: '',
        summary: '',
        tracking_number: expect.any(String),
      });
    expect(log.body.data.map((row: { tracking_number: string }) => row.tracking_number)).toContain(
      '',
    );
    const other = await suite.p.tenant();
    expect((await other.request('GET', `${PREFIX}/instances/${instance.id}/webhooks`)).status).toBe(
      404,
    );
    expect(
      (await t.request('GET', `${PREFIX}/instances/${instance.id}/webhooks?filter[result]=done`))
        .status,
    ).toBe(422);
  });

  it('keeps the log after a disconnect and refuses the removed token with 404, storing nothing', async () => {
    const { t, instance } = await suite.connected();
    const body = push('1Z999AA10123456785');
    const stored = await pushToInstance(suite.p.system.gatewayUrl, t, instance, '');
    expect(stored.status).toBe(422);
    expect((await t.request('DELETE', `${PREFIX}/instances/${instance.id}`)).status).toBe(204);
    const after = await pushToInstance(suite.p.system.gatewayUrl, t, instance, body, {
      sign: signBody(body, GOOD_KEY),
    });
    expect(after.status).toBe(404);
    const log = suite.p.system.services['webhook-ingest']!.mongo.collection('webhook_events');
    expect(await log.countDocuments({ tenant_id: t.tenant.id })).toBe(1);
  });

  // End to end: the provider's push, webhook-ingest's row, then parcel-tracking's ApplyTrackingUpdates.
  it('processes what the simulator pushes to the real webhook_url: one row per push, a retry ignored as a duplicate', async () => {
    const { t, instance } = await suite.connected();
    const number = '1Z999AA10123456786';
    const register = await fetch(`${suite.p.sim.url}/track/v2.2/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', '17token': GOOD_KEY },
      body: JSON.stringify([{ number }]),
    });
    expect(register.status).toBe(200);
    suite.p.sim.advance(number);
    const gatewayPort = new URL(suite.p.system.gatewayUrl).port;
    const url = `http://${t.host}:${gatewayPort}${new URL(instance.webhook_url).pathname}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      const pushed = await suite.p.sim.pushWebhook({ url, number, apiKey: GOOD_KEY });
      expect(pushed).toMatchObject({ delivered: true, status: 200 });
    }
    const rows = await webhookLogOf(t, instance.id, 'sort=received_at', 2);
    expect(rows[0]).toMatchObject({
      event_type: 'TRACKING_UPDATED',
      tracking_number: number,
      result: expect.stringMatching(/^(processed|ignored)$/),
    });
    expect(rows[1]).toMatchObject({
      tracking_number: number,
      result: 'ignored',
      error_message: expect.stringContaining('Duplicate'),
      status_from: '',
      status_to: '',
      summary: '',
    });
    const first = rows[0]!;
    expect(first.summary).toBe(
      first.status_from ? `${first.status_from} → ${first.status_to}` : '',
    );
  });
});
