import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { domainEventEntry } from '@inventory/events';
import { encodeEvent } from '@inventory/platform';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  as,
  deliveriesOf,
  settledDeliveries,
  startHarness,
  subscribe,
  waitFor,
  type Harness,
} from './harness.js';
import { mintSigningSecret } from '../src/domain/signing-secret.js';
import { startReceiver, type Receiver } from './receiver.js';

const TENANT = 'tenant-delivery';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('signed deliveries', () => {
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    h = await startHarness();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
    await h?.stop();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.respond((_request, response) => response.writeHead(200).end('ok'));
  });

  const requestsTo = (path: string) => receiver.requests.filter((r) => r.path === path);

  it('posts exactly {event, delivery_id, occurred_at, data} with the headers, signed so a stock verifier accepts it', async () => {
    const { id, secret } = await subscribe(h, TENANT, `${receiver.url}/exact`);
    const occurredAt = new Date('2026-03-04T05:06:07.089Z');
    const { type, event } = domainEventEntry({
      tenantId: TENANT,
      name: 'sales_order.created',
      data: { id: 42, sku: 'A-1', tags: ['x'], price: { amount: '9.90' } },
      occurredAt,
    });
    await h.service.publisher.publish(type, event);
    const request = await waitFor(() => requestsTo('/exact')[0], 'the delivery');

    const body = JSON.parse(request.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['event', 'delivery_id', 'occurred_at', 'data']);
    expect(body).toEqual({
      event: 'sales_order.created',
      delivery_id: expect.stringMatching(UUID),
      occurred_at: '2026-03-04T05:06:07.089Z',
      // As the producer wrote it, plus the resource sequence (ADR 0414).
      data: {
        id: 42,
        sku: 'A-1',
        tags: ['x'],
        price: { amount: '9.90' },
        resource_sequence: expect.any(Number),
      },
    });
    expect(request.headers['x-svc-event']).toBe('sales_order.created');
    expect(request.headers['x-svc-delivery-id']).toBe(body.delivery_id);
    expect(request.headers['user-agent']).toBe('SVC-Webhook/1.0');
    expect(request.headers['content-type']).toBe('application/json');
    const signature = request.headers['x-svc-signature'] as string;
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify(secret, request.body, signature)).toBe(true);
    expect(await verify(`${secret}x`, request.body, signature)).toBe(false);

    const [delivery] = await settledDeliveries(h, TENANT, id, 1);
    expect(delivery).toMatchObject({
      id: body.delivery_id,
      status: 'succeeded',
      event: 'sales_order.created',
    });
    expect(delivery!.attempts).toHaveLength(1);
    expect(delivery!.attempts[0]).toMatchObject({ response_status: 200, response_body: 'ok' });
  });

  it('delivers only to active subscriptions of the tenant that list the event, once per event even when NATS redelivers it', async () => {
    const listed = await subscribe(h, TENANT, `${receiver.url}/listed`);
    const otherEvent = await subscribe(h, TENANT, `${receiver.url}/other-event`, [
      'customer.created',
    ]);
    const paused = await subscribe(h, TENANT, `${receiver.url}/paused`);
    await as(TENANT, () =>
      h.client.call.updateSubscription({
        id: paused.id,
        events: [],
        has_events: false,
        clear_description: false,
        is_active: false,
        input_violations: [],
      }),
    );
    const otherTenant = await subscribe(h, 'tenant-elsewhere', `${receiver.url}/elsewhere`);

    // The same event twice on the stream (no publish dedupe header): as a redelivery would be.
    const { type, event } = domainEventEntry({
      tenantId: TENANT,
      name: 'sales_order.created',
      data: { n: 'dup' },
    });
    const { bytes } = encodeEvent(type, { ...event, id: 'evt-dup-1' });
    await h.service.jetstream.publish(type.subject, bytes);
    await h.service.jetstream.publish(type.subject, bytes);
    // A later event: once it is delivered, the consumer has handled both copies before it.
    await h.publish(TENANT, 'sales_order.created', { n: 'marker' });
    await waitFor(
      () => requestsTo('/listed').some((r) => JSON.parse(r.body).data.n === 'marker'),
      'the marker delivery',
    );

    const dupes = requestsTo('/listed').filter((r) => JSON.parse(r.body).data.n === 'dup');
    expect(dupes).toHaveLength(1);
    expect((await deliveriesOf(h, TENANT, listed.id)).total).toBe(2);
    expect((await deliveriesOf(h, TENANT, otherEvent.id)).total).toBe(0);
    expect((await deliveriesOf(h, TENANT, paused.id)).total).toBe(0);
    expect((await deliveriesOf(h, 'tenant-elsewhere', otherTenant.id)).total).toBe(0);
    expect(requestsTo('/paused')).toHaveLength(0);
  });

  it('sends nothing again for an event that comes back after its deliveries are stored', async () => {
    const { id } = await subscribe(h, TENANT, `${receiver.url}/late-copy`);
    const { type, event } = domainEventEntry({
      tenantId: TENANT,
      name: 'sales_order.created',
      data: { n: 'late' },
    });
    const { bytes } = encodeEvent(type, { ...event, id: 'evt-late-copy-1' });
    await h.service.jetstream.publish(type.subject, bytes);
    await settledDeliveries(h, TENANT, id, 1);
    // The same event again, once its delivery is stored: as a redelivery after a lost ack.
    await h.service.jetstream.publish(type.subject, bytes);
    await h.publish(TENANT, 'sales_order.created', { n: 'late-marker' });
    await settledDeliveries(h, TENANT, id, 2);
    const late = requestsTo('/late-copy').filter((r) => JSON.parse(r.body).data.n === 'late');
    expect(late).toHaveLength(1);
  });

  it('retries 4xx and 5xx answers with the same delivery id and succeeds on any 2xx', async () => {
    const answers = [500, 429];
    receiver.respond((_r, response) => response.writeHead(answers.shift() ?? 204).end());
    const { id } = await subscribe(h, TENANT, `${receiver.url}/flaky`);
    await as(TENANT, () => h.client.call.sendTestPing({ subscription_id: id }));
    const [delivery] = await settledDeliveries(h, TENANT, id, 1);
    expect(delivery!.status).toBe('succeeded');
    expect(delivery!.attempts.map((a) => a.response_status)).toEqual([500, 429, 204]);
    const ids = requestsTo('/flaky').map((r) => r.headers['x-svc-delivery-id']);
    expect(ids).toEqual([delivery!.id, delivery!.id, delivery!.id]);
    expect(new Set(requestsTo('/flaky').map((r) => r.body)).size).toBe(1);
  });

  it('gives up after 3 attempts, and times out an attempt at the configured timeout', async () => {
    receiver.respond((request, response) => {
      if (request.path === '/slow')
        // eslint-disable-next-line no-restricted-syntax -- a receiver slower than the attempt timeout is the subject
        setTimeout(() => response.writeHead(200).end(), 2_000);
      else response.writeHead(400).end('bad request');
    });
    const bad = await subscribe(h, TENANT, `${receiver.url}/bad`);
    const slow = await subscribe(h, TENANT, `${receiver.url}/slow`);
    await as(TENANT, () => h.client.call.sendTestPing({ subscription_id: bad.id }));
    await as(TENANT, () => h.client.call.sendTestPing({ subscription_id: slow.id }));
    const [failed] = await settledDeliveries(h, TENANT, bad.id, 1);
    expect(failed!.status).toBe('failed');
    expect(failed!.attempts.map((a) => a.response_status)).toEqual([400, 400, 400]);
    expect(failed!.attempts[0]!.response_body).toBe('bad request');
    const [timedOut] = await settledDeliveries(h, TENANT, slow.id, 1);
    expect(timedOut!.status).toBe('failed');
    expect(timedOut!.attempts).toHaveLength(3);
    for (const attempt of timedOut!.attempts) {
      expect(attempt.response_status).toBeUndefined();
      expect(attempt.error).toBe('timeout after 500 ms');
    }
  });

  it('deactivates at once on HTTP 410 and sends it nothing more', async () => {
    receiver.respond((request, response) =>
      response.writeHead(request.path === '/gone' ? 410 : 200).end(),
    );
    const gone = await subscribe(h, TENANT, `${receiver.url}/gone`, ['inventory.adjusted']);
    const alive = await subscribe(h, TENANT, `${receiver.url}/alive`, ['inventory.adjusted']);
    await h.publish(TENANT, 'inventory.adjusted', { n: 1 });
    const [first] = await settledDeliveries(h, TENANT, gone.id, 1);
    expect(first!.status).toBe('failed');
    expect(first!.attempts.map((a) => a.response_status)).toEqual([410]);
    const { subscription } = await as(TENANT, () => h.client.call.getSubscription({ id: gone.id }));
    expect(subscription).toMatchObject({ is_active: false, deactivated_reason: 'gone' });

    await h.publish(TENANT, 'inventory.adjusted', { n: 2 });
    await settledDeliveries(h, TENANT, alive.id, 2);
    expect((await deliveriesOf(h, TENANT, gone.id)).total).toBe(1);
    expect(requestsTo('/gone')).toHaveLength(1);
  });

  it('during a rotation overlap, X-SVC-Signature keeps one value (the new secret) and webhook-signature carries both', async () => {
    const { id, secret: oldSecret } = await subscribe(h, TENANT, `${receiver.url}/rotating`);
    const { secret: newSecret } = await as(TENANT, () => h.client.call.rotateSecret({ id }));
    await as(TENANT, () => h.client.call.sendTestPing({ subscription_id: id }));
    const request = await waitFor(() => requestsTo('/rotating')[0], 'the ping');
    const svc = request.headers['x-svc-signature'] as string;
    expect(svc).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify(newSecret, request.body, svc)).toBe(true);
    expect(await verify(oldSecret, request.body, svc)).toBe(false);
    const standard = {
      'webhook-id': request.headers['webhook-id'] as string,
      'webhook-timestamp': request.headers['webhook-timestamp'] as string,
      'webhook-signature': request.headers['webhook-signature'] as string,
    };
    expect(standard['webhook-id']).toBe(request.headers['x-svc-delivery-id']);
    expect(standard['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [newSecret, oldSecret])
      expect(new Webhook(secret).verify(request.body, standard)).toMatchObject({ event: 'ping' });
    expect(() => new Webhook(mintSigningSecret()).verify(request.body, standard)).toThrow();
  });

  it('keeps a delivery log filtered by status and event, redelivers the same body and id, and cuts stored response bodies', async () => {
    receiver.respond((_r, response) => response.writeHead(200).end('y'.repeat(10_000)));
    const { id } = await subscribe(h, TENANT, `${receiver.url}/log`, ['sales_order.created']);
    const ping = await as(TENANT, () => h.client.call.sendTestPing({ subscription_id: id }));
    expect(ping.delivery).toMatchObject({ event: 'ping', status: 'pending' });
    await h.publish(TENANT, 'sales_order.created', { n: 'logged' });
    const settled = await settledDeliveries(h, TENANT, id, 2);
    expect(settled.every((d) => d.status === 'succeeded')).toBe(true);
    expect(settled[0]!.attempts[0]!.response_body).toHaveLength(4096);

    const pings = await deliveriesOf(h, TENANT, id, { event: 'ping' });
    expect(pings.deliveries.map((d) => d.event)).toEqual(['ping']);
    const pingBody = JSON.parse(
      requestsTo('/log').find((r) => r.headers['x-svc-event'] === 'ping')!.body,
    );
    expect(pingBody).toMatchObject({ event: 'ping', data: { subscription_id: id } });
    expect((await deliveriesOf(h, TENANT, id, { status: 'failed' })).total).toBe(0);
    expect((await deliveriesOf(h, TENANT, id, { status: 'succeeded' })).total).toBe(2);

    const original = requestsTo('/log').find(
      (r) => r.headers['x-svc-event'] === 'sales_order.created',
    )!;
    const deliveryId = original.headers['x-svc-delivery-id'] as string;
    await as(TENANT, () =>
      h.client.call.redeliver({ subscription_id: id, delivery_id: deliveryId }),
    );
    await waitFor(
      () =>
        requestsTo('/log').filter((r) => r.headers['x-svc-delivery-id'] === deliveryId).length ===
        2,
      'the redelivery',
    );
    const again = requestsTo('/log').filter(
      (r) => r.headers['x-svc-delivery-id'] === deliveryId,
    )[1]!;
    expect(again.body).toBe(original.body);
    const redelivered = await waitFor(async () => {
      const { deliveries } = await deliveriesOf(h, TENANT, id, { event: 'sales_order.created' });
      return deliveries[0]?.attempts.length === 2 && deliveries[0].status === 'succeeded'
        ? deliveries[0]
        : undefined;
    }, 'the redelivery to settle');
    expect(redelivered.id).toBe(deliveryId);
  });
});
