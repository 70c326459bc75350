import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderSimHandle } from '../src/index.js';
import { KEY, OTHER_KEY, admin, call, items, startReceiver, startSim } from './helpers.js';

const N = '9400111899223344556677';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let sim: ProviderSimHandle | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
afterEach(async () => {
  await sim?.stop();
  await receiver?.close();
  sim = undefined;
  receiver = undefined;
});

describe('webhooks', () => {
  it('pushes a signed TRACKING_UPDATED body: sign = sha256(body + "/" + key)', async () => {
    sim = await startSim();
    receiver = await startReceiver([200]);
    await call(sim, 'register', [{ number: N, tag: 'order-3' }], OTHER_KEY);
    sim.advance(N);
    const res = await admin(sim, 'POST', '/push', { url: receiver.url, number: N });
    expect(res.json).toMatchObject({ status: 200, delivered: true, attempts: 1 });
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers.sign).toBe(sha256(`${got!.body}/${OTHER_KEY}`));
    expect(got!.headers.sign).not.toBe(sha256(`${got!.body}/${KEY}`));
    const payload = JSON.parse(got!.body);
    expect(payload).toMatchObject({
      event: 'TRACKING_UPDATED',
      data: {
        number: N,
        carrier: 21051,
        tag: 'order-3',
        track_info: { latest_status: { status: 'InfoReceived' } },
      },
    });
  });

  it('reaches a tenant URL under .localhost on loopback, keeping its Host (npm start webhook_url)', async () => {
    sim = await startSim();
    receiver = await startReceiver([200]);
    await call(sim, 'register', [{ number: N }]);
    sim.advance(N);
    const url = receiver.url.replace('127.0.0.1', 'dev.inventory.localhost');
    const res = await admin(sim, 'POST', '/push', { url, number: N });
    expect(res.json).toMatchObject({ status: 200, delivered: true });
    expect(receiver.received[0]!.headers.host).toBe(new URL(url).host);
  });

  it('retries non-2xx answers up to 3 attempts and reports the last status', async () => {
    sim = await startSim({ webhookRetryDelayMs: 5 });
    receiver = await startReceiver([500, 503, 502, 200]);
    await call(sim, 'register', items(N));
    const result = await sim.pushWebhook({
      url: receiver.url,
      number: N,
      event: 'TRACKING_STOPPED',
    });
    expect(result).toMatchObject({
      delivered: false,
      status: 502,
      attempts: 3,
      statuses: [500, 503, 502],
    });
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(JSON.parse(receiver.received[0]!.body).event).toBe('TRACKING_STOPPED');
  });

  it('stops retrying once the receiver answers 2xx', async () => {
    sim = await startSim();
    receiver = await startReceiver([500, 204]);
    await call(sim, 'register', items(N));
    const result = await sim.pushWebhook({ url: receiver.url, number: N });
    expect(result).toMatchObject({ delivered: true, status: 204, attempts: 2 });
    expect(receiver.received).toHaveLength(2);
  });

  it('reports a receiver that is down as status null after the retries', async () => {
    sim = await startSim();
    await call(sim, 'register', items(N));
    const result = await sim.pushWebhook({ url: 'http://127.0.0.1:9/hook', number: N });
    expect(result.delivered).toBe(false);
    expect(result.statuses).toEqual([null, null, null]);
    expect(result.error).toEqual(expect.any(String));
  });

  it('pushes automatically to a key with a webhook URL on advance and on stoptrack', async () => {
    receiver = await startReceiver([200]);
    sim = await startSim({ keys: [{ key: KEY, webhookUrl: receiver.url }] });
    await call(sim, 'register', items(N));
    sim.advance(N);
    await sim.flushWebhooks();
    await call(sim, 'stoptrack', items(N));
    await sim.flushWebhooks();
    sim.advance(N); // stopped: no more pushes
    await sim.flushWebhooks();
    const events = receiver.received.map((r) => JSON.parse(r.body).event);
    expect(events).toEqual(['TRACKING_UPDATED', 'TRACKING_STOPPED']);
    for (const r of receiver.received) expect(r.headers.sign).toBe(sha256(`${r.body}/${KEY}`));
    const log = await admin(sim, 'GET', '/webhooks');
    expect(log.json.deliveries).toHaveLength(2);
  });

  it('carries the event history newest first, and replays an earlier push exactly, late', async () => {
    receiver = await startReceiver([200]);
    sim = await startSim({ keys: [{ key: KEY, webhookUrl: receiver.url }] });
    await call(sim, 'register', items(N));
    sim.advance(N);
    await sim.flushWebhooks();
    sim.advance(N);
    await sim.flushWebhooks();
    const [first, second] = receiver.received.map((r) => JSON.parse(r.body));
    const events = (push: {
      data: {
        track_info: { tracking: { providers: Array<{ events: Array<{ sub_status: string }> }> } };
      };
    }) => push.data.track_info.tracking.providers[0]!.events.map((event) => event.sub_status);
    expect(events(first)).toEqual(['InfoReceived']);
    expect(events(second)).toEqual(['InTransit_PickedUp', 'InfoReceived']);

    const replay = await admin(sim, 'POST', '/webhooks/0/replay', {});
    expect(replay.json).toMatchObject({ delivered: true, status: 200 });
    const late = receiver.received[2]!;
    expect(late.body).toBe(receiver.received[0]!.body);
    expect(late.headers.sign).toBe(sha256(`${late.body}/${KEY}`));
    const log = await admin(sim, 'GET', '/webhooks');
    expect(log.json.deliveries[2]).toMatchObject({ number: N, replay_of: 0, delivered: true });
    expect((await admin(sim, 'POST', '/webhooks/9/replay', {})).status).toBe(404);
    expect((await admin(sim, 'POST', '/webhooks/x/replay', {})).status).toBe(404);
  });

  it('refuses to push for an unregistered number', async () => {
    sim = await startSim();
    const res = await admin(sim, 'POST', '/push', {
      url: 'http://127.0.0.1:9/x',
      number: 'NOPE000001',
    });
    expect(res.status).toBe(404);
  });
});
