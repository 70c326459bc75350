import { eventually as poll } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { GOOD_KEY, PREFIX, seedPendingRows } from './harness.js';
import { useParcelSystem } from './instance-suite.js';

const suite = useParcelSystem();

const eventually = <T>(check: () => Promise<T>, timeoutMs = 60_000): Promise<T> =>
  poll(check, timeoutMs);

interface SimEvent {
  time_utc: string;
  description: string;
  location: string;
  sub_status: string;
  stage: string;
}

describe('every carrier checkpoint kept, through the whole system', () => {
  it('keeps each checkpoint the simulator pushes once, newest first, with pushes repeated and arriving late', async () => {
    const { t, instance } = await suite.connected();
    const { sim } = suite.p;
    const number = '1Z999AA10123456790';
    await seedPendingRows(suite.p, t, instance.id, [number]);
    const register = await fetch(`${sim.url}/track/v2.2/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', '17token': GOOD_KEY },
      body: JSON.stringify([{ number }]),
    });
    expect(register.status).toBe(200);
    const gatewayPort = new URL(suite.p.system.gatewayUrl).port;
    const url = `http://${t.host}:${gatewayPort}${new URL(instance.webhook_url).pathname}`;
    const pushTo = (to: string) => sim.pushWebhook({ url: to, number, apiKey: GOOD_KEY });

    sim.advance(number);
    expect((await pushTo(url)).delivered).toBe(true); // delivery 0: one event
    sim.advance(number);
    // Delivery 1 (two events) fails for now: nothing listens there.
    expect((await pushTo('http://127.0.0.1:9/hook')).delivered).toBe(false);
    sim.advance(number);
    expect((await pushTo(url)).delivered).toBe(true); // delivery 2: three events
    // The failed push arrives late, after the newer one, and the newest comes again.
    expect((await sim.replayWebhook({ index: 1, url })).delivered).toBe(true);
    expect((await sim.replayWebhook({ index: 2, url })).delivered).toBe(true);

    const log = await eventually(async () => {
      const answer = await t.request(
        'GET',
        `${PREFIX}/instances/${instance.id}/webhooks?sort=received_at&per_page=50`,
      );
      expect(answer.body.meta.total).toBe(4);
      return answer.body.data as Array<{ result: string; status_to: string }>;
    });
    // The late one is older than the row (ignored, stale), the repeat a duplicate: neither moves
    // the row, and neither adds a checkpoint twice.
    expect(log.map((row) => row.result)).toEqual(['processed', 'processed', 'ignored', 'ignored']);

    const list = await t.request('GET', `${PREFIX}/instances/${instance.id}/trackings`);
    expect(list.status).toBe(200);
    const id = list.body.data[0].id as number;
    // The list row is the specification's row: no checkpoints in it.
    expect(list.body.data[0]).not.toHaveProperty('checkpoints');

    const shown = await t.request('GET', `${PREFIX}/instances/${instance.id}/trackings/${id}`);
    expect(shown.status).toBe(200);
    const events = sim.trackings().find((item) => item.number === number)!.track_info.tracking
      .providers[0]!.events as SimEvent[];
    expect(events).toHaveLength(3);
    expect(shown.body.data).toMatchObject({
      id,
      tracking_number: number,
      delivery_status: 'out_for_delivery',
      sub_status: 'OutForDelivery_Other',
    });
    expect(shown.body.data.checkpoints).toEqual(
      events.map((event) => ({
        occurred_at: new Date(event.time_utc).toISOString(),
        description: event.description,
        location: event.location,
        status: expect.any(String),
        sub_status: event.sub_status,
        stage: event.stage,
      })),
    );
    expect(shown.body.data.checkpoints.map((c: { status: string }) => c.status)).toEqual([
      'out_for_delivery',
      'in_transit',
      'info_received',
    ]);
  });

  it('answers the inbound webhooks and the activity naming the number, newest first, not a longer number', async () => {
    const { t, instance } = await suite.connected();
    const { sim } = suite.p;
    const number = 'DETAIL0001';
    const longer = `${number}9`;
    await seedPendingRows(suite.p, t, instance.id, [number]);
    await fetch(`${sim.url}/track/v2.2/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', '17token': GOOD_KEY },
      body: JSON.stringify([{ number }, { number: longer }]),
    });
    const gatewayPort = new URL(suite.p.system.gatewayUrl).port;
    const url = `http://${t.host}:${gatewayPort}${new URL(instance.webhook_url).pathname}`;
    for (const which of [number, longer, number]) {
      sim.advance(which);
      expect((await sim.pushWebhook({ url, number: which, apiKey: GOOD_KEY })).delivered).toBe(
        true,
      );
    }
    const id = (await t.request('GET', `${PREFIX}/instances/${instance.id}/trackings`)).body.data[0]
      .id as number;
    const detail = await eventually(async () => {
      const answer = await t.request('GET', `${PREFIX}/instances/${instance.id}/trackings/${id}`);
      expect(answer.status).toBe(200);
      expect(answer.body.data.activity_total).toBe(2);
      return answer.body.data;
    });
    expect(detail.webhooks_total).toBe(2);
    expect(detail.webhooks).toHaveLength(2);
    for (const row of detail.webhooks)
      expect(row).toMatchObject({ tracking_number: number, result: 'processed' });
    const received = detail.webhooks.map((row: { received_at: string }) => row.received_at);
    expect(received).toEqual([...received].sort().reverse());
    expect(detail.webhooks[0]).toMatchObject({
      status_from: 'info_received',
      status_to: 'in_transit',
    });
    expect(detail.activity.map((row: { event: string }) => row.event)).toEqual([
      'webhook_processed',
      'webhook_processed',
    ]);
    for (const row of detail.activity)
      expect(row.properties).toMatchObject({ tracking_number: number });
    // The longer number's push is in the log, never in this shipment's answer.
    const log = await t.request(
      'GET',
      `${PREFIX}/instances/${instance.id}/webhooks?filter[tracking_number]=${number}`,
    );
    expect(log.body.meta.total).toBe(3);
  });

  it("answers 404 for another tenant's tracking, an unknown id and a malformed one", async () => {
    const { t, instance } = await suite.connected();
    await seedPendingRows(suite.p, t, instance.id, ['CHECKPOINT404']);
    const list = await t.request('GET', `${PREFIX}/instances/${instance.id}/trackings`);
    const id = list.body.data[0].id as number;
    const own = await t.request('GET', `${PREFIX}/instances/${instance.id}/trackings/${id}`);
    expect(own.status).toBe(200);
    expect(own.body.data.checkpoints).toEqual([]);

    const other = await suite.connected();
    for (const path of [
      `${PREFIX}/instances/${other.instance.id}/trackings/${id}`,
      `${PREFIX}/instances/${instance.id}/trackings/${id}`,
    ]) {
      const answer = await other.t.request('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toMatchObject({ message: expect.any(String) });
    }
    for (const bad of [`${id + 100000}`, 'abc', '__proto__', '1%00']) {
      const answer = await t.request('GET', `${PREFIX}/instances/${instance.id}/trackings/${bad}`);
      expect(answer.status, bad).toBe(404);
      expect(answer.body).toMatchObject({ message: 'Tracking not found.' });
    }
  });
});
