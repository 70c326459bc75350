import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { domainEventEntry } from '@inventory/events';
import { encodeEvent } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import { as, waitFor } from './harness.js';
import { mintSigningSecret } from '../src/domain/signing-secret.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-delivery';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('signed deliveries', () => {
  const suite = useReceiverSuite({ resetReceiver: true });

  it('posts exactly {event, delivery_id, occurred_at, data} with the headers, signed so a stock verifier accepts it', async () => {
    const { id, secret } = await suite.subscribe(TENANT, '/exact');
    const occurredAt = new Date('2026-03-04T05:06:07.089Z');
    const { type, event } = domainEventEntry({
      tenantId: TENANT,
      name: 'sales_order.created',
      data: { id: 42, sku: 'A-1', tags: ['x'], price: { amount: '9.90' } },
      occurredAt,
    });
    await suite.h.service.publisher.publish(type, event);
    const request = await waitFor(() => suite.requestsTo('/exact')[0], 'the delivery');

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

    const [delivery] = await suite.settled(TENANT, id, 1);
    expect(delivery).toMatchObject({
      id: body.delivery_id,
      status: 'succeeded',
      event: 'sales_order.created',
    });
    expect(delivery!.attempts).toHaveLength(1);
    expect(delivery!.attempts[0]).toMatchObject({ response_status: 200, response_body: 'ok' });
  });

  it('delivers only to active subscriptions of the tenant that list the event, once per event even when NATS redelivers it', async () => {
    const listed = await suite.subscribe(TENANT, '/listed');
    const otherEvent = await suite.subscribe(TENANT, '/other-event', ['customer.created']);
    const paused = await suite.subscribe(TENANT, '/paused');
    await suite.update(TENANT, paused.id, { is_active: false });
    const otherTenant = await suite.subscribe('tenant-elsewhere', '/elsewhere');

    // The same event twice on the stream (no publish dedupe header): as a redelivery would be.
    const { type, event } = domainEventEntry({
      tenantId: TENANT,
      name: 'sales_order.created',
      data: { n: 'dup' },
    });
    const { bytes } = encodeEvent(type, { ...event, id: 'evt-dup-1' });
    await suite.h.service.jetstream.publish(type.subject, bytes);
    await suite.h.service.jetstream.publish(type.subject, bytes);
    // A later event: once it is delivered, the consumer has handled both copies before it.
    await suite.h.publish(TENANT, 'sales_order.created', { n: 'marker' });
    await waitFor(
      () => suite.requestsTo('/listed').some((r) => JSON.parse(r.body).data.n === 'marker'),
      'the marker delivery',
    );

    const dupes = suite.requestsTo('/listed').filter((r) => JSON.parse(r.body).data.n === 'dup');
    expect(dupes).toHaveLength(1);
    expect((await suite.deliveriesOf(TENANT, listed.id)).total).toBe(2);
    expect((await suite.deliveriesOf(TENANT, otherEvent.id)).total).toBe(0);
    expect((await suite.deliveriesOf(TENANT, paused.id)).total).toBe(0);
    expect((await suite.deliveriesOf('tenant-elsewhere', otherTenant.id)).total).toBe(0);
    expect(suite.requestsTo('/paused')).toHaveLength(0);
  });

  it('sends nothing again for an event that comes back after its deliveries are stored', async () => {
    const { id } = await suite.subscribe(TENANT, '/late-copy');
    const { type, event } = domainEventEntry({
      tenantId: TENANT,
      name: 'sales_order.created',
      data: { n: 'late' },
    });
    const { bytes } = encodeEvent(type, { ...event, id: 'evt-late-copy-1' });
    await suite.h.service.jetstream.publish(type.subject, bytes);
    await suite.settled(TENANT, id, 1);
    // The same event again, once its delivery is stored: as a redelivery after a lost ack.
    await suite.h.service.jetstream.publish(type.subject, bytes);
    await suite.h.publish(TENANT, 'sales_order.created', { n: 'late-marker' });
    await suite.settled(TENANT, id, 2);
    const late = suite.requestsTo('/late-copy').filter((r) => JSON.parse(r.body).data.n === 'late');
    expect(late).toHaveLength(1);
  });

  it('retries 4xx and 5xx answers with the same delivery id and succeeds on any 2xx', async () => {
    const answers = [500, 429];
    suite.receiver.respond((_r, response) => response.writeHead(answers.shift() ?? 204).end());
    const { id } = await suite.subscribe(TENANT, '/flaky');
    await as(TENANT, () => suite.h.client.call.sendTestPing({ subscription_id: id }));
    const [delivery] = await suite.settled(TENANT, id, 1);
    expect(delivery!.status).toBe('succeeded');
    expect(delivery!.attempts.map((a) => a.response_status)).toEqual([500, 429, 204]);
    const ids = suite.requestsTo('/flaky').map((r) => r.headers['x-svc-delivery-id']);
    expect(ids).toEqual([delivery!.id, delivery!.id, delivery!.id]);
    expect(new Set(suite.requestsTo('/flaky').map((r) => r.body)).size).toBe(1);
  });

  it('gives up after 3 attempts, and times out an attempt at the configured timeout', async () => {
    suite.receiver.respond((request, response) => {
      if (request.path === '/slow')
        // eslint-disable-next-line no-restricted-syntax -- a receiver slower than the attempt timeout is the subject
        setTimeout(() => response.writeHead(200).end(), 2_000);
      else response.writeHead(400).end('bad request');
    });
    const bad = await suite.subscribe(TENANT, '/bad');
    const slow = await suite.subscribe(TENANT, '/slow');
    await as(TENANT, () => suite.h.client.call.sendTestPing({ subscription_id: bad.id }));
    await as(TENANT, () => suite.h.client.call.sendTestPing({ subscription_id: slow.id }));
    const [failed] = await suite.settled(TENANT, bad.id, 1);
    expect(failed!.status).toBe('failed');
    expect(failed!.attempts.map((a) => a.response_status)).toEqual([400, 400, 400]);
    expect(failed!.attempts[0]!.response_body).toBe('bad request');
    const [timedOut] = await suite.settled(TENANT, slow.id, 1);
    expect(timedOut!.status).toBe('failed');
    expect(timedOut!.attempts).toHaveLength(3);
    for (const attempt of timedOut!.attempts) {
      expect(attempt.response_status).toBeUndefined();
      expect(attempt.error).toBe('timeout after 500 ms');
    }
  });

  it('deactivates at once on HTTP 410 and sends it nothing more', async () => {
    suite.receiver.respond((request, response) =>
      response.writeHead(request.path === '/gone' ? 410 : 200).end(),
    );
    const gone = await suite.subscribe(TENANT, '/gone', ['inventory.adjusted']);
    const alive = await suite.subscribe(TENANT, '/alive', ['inventory.adjusted']);
    await suite.h.publish(TENANT, 'inventory.adjusted', { n: 1 });
    const [first] = await suite.settled(TENANT, gone.id, 1);
    expect(first!.status).toBe('failed');
    expect(first!.attempts.map((a) => a.response_status)).toEqual([410]);
    const { subscription } = await as(TENANT, () =>
      suite.h.client.call.getSubscription({ id: gone.id }),
    );
    expect(subscription).toMatchObject({ is_active: false, deactivated_reason: 'gone' });

    await suite.h.publish(TENANT, 'inventory.adjusted', { n: 2 });
    await suite.settled(TENANT, alive.id, 2);
    expect((await suite.deliveriesOf(TENANT, gone.id)).total).toBe(1);
    expect(suite.requestsTo('/gone')).toHaveLength(1);
  });

  it('during a rotation overlap, X-SVC-Signature keeps one value (the new secret) and webhook-signature carries both', async () => {
    const { id, secret: oldSecret } = await suite.subscribe(TENANT, '/rotating');
    const { secret: newSecret } = await as(TENANT, () => suite.h.client.call.rotateSecret({ id }));
    await as(TENANT, () => suite.h.client.call.sendTestPing({ subscription_id: id }));
    const request = await waitFor(() => suite.requestsTo('/rotating')[0], 'the ping');
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
    suite.receiver.respond((_r, response) => response.writeHead(200).end('y'.repeat(10_000)));
    const { id } = await suite.subscribe(TENANT, '/log', ['sales_order.created']);
    const ping = await as(TENANT, () => suite.h.client.call.sendTestPing({ subscription_id: id }));
    expect(ping.delivery).toMatchObject({ event: 'ping', status: 'pending' });
    await suite.h.publish(TENANT, 'sales_order.created', { n: 'logged' });
    const settled = await suite.settled(TENANT, id, 2);
    expect(settled.every((d) => d.status === 'succeeded')).toBe(true);
    expect(settled[0]!.attempts[0]!.response_body).toHaveLength(4096);

    const pings = await suite.deliveriesOf(TENANT, id, { event: 'ping' });
    expect(pings.deliveries.map((d) => d.event)).toEqual(['ping']);
    const pingBody = JSON.parse(
      suite.requestsTo('/log').find((r) => r.headers['x-svc-event'] === 'ping')!.body,
    );
    expect(pingBody).toMatchObject({ event: 'ping', data: { subscription_id: id } });
    expect((await suite.deliveriesOf(TENANT, id, { status: 'failed' })).total).toBe(0);
    expect((await suite.deliveriesOf(TENANT, id, { status: 'succeeded' })).total).toBe(2);

    const original = suite
      .requestsTo('/log')
      .find((r) => r.headers['x-svc-event'] === 'sales_order.created')!;
    const deliveryId = original.headers['x-svc-delivery-id'] as string;
    await as(TENANT, () =>
      suite.h.client.call.redeliver({ subscription_id: id, delivery_id: deliveryId }),
    );
    await waitFor(
      () =>
        suite.requestsTo('/log').filter((r) => r.headers['x-svc-delivery-id'] === deliveryId)
          .length === 2,
      'the redelivery',
    );
    const again = suite
      .requestsTo('/log')
      .filter((r) => r.headers['x-svc-delivery-id'] === deliveryId)[1]!;
    expect(again.body).toBe(original.body);
    const redelivered = await waitFor(async () => {
      const { deliveries } = await suite.deliveriesOf(TENANT, id, { event: 'sales_order.created' });
      return deliveries[0]?.attempts.length === 2 && deliveries[0].status === 'succeeded'
        ? deliveries[0]
        : undefined;
    }, 'the redelivery to settle');
    expect(redelivered.id).toBe(deliveryId);
  });
});
