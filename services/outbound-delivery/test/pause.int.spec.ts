import { OutboundDeliveryServiceClient } from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import { domainEventEntry } from '@inventory/events';
import { createGrpcClient } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  deliveriesOf,
  startHarness,
  subscribe,
  waitFor,
  type Harness,
  type Service,
} from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

const TENANT = 'tenant-pause';
const START = Date.parse('2026-05-01T10:00:00.000Z');

/** Publishes sales_order.created events numbered `from`…, each a second after the last. */
async function emit(service: Service, from: number, count: number): Promise<void> {
  for (let n = from; n < from + count; n += 1) {
    const { type, event } = domainEventEntry({
      tenantId: TENANT,
      name: 'sales_order.created',
      data: { id: n },
      occurredAt: new Date(START + n * 1000),
    });
    await service.publisher.publish(type, event);
  }
}

const idsReceived = (receiver: Receiver, path: string) =>
  receiver.requests
    .filter((request) => request.path === path)
    .map((request) => (JSON.parse(request.body) as { data: { id: number } }).data.id);

const heldOf = async (h: Harness, id: number, count: number) =>
  waitFor(async () => {
    const { deliveries } = await deliveriesOf(h, TENANT, id, { status: 'held' });
    return deliveries.length === count ? deliveries : undefined;
  }, `${count} held deliveries`);

describe('pausing and resuming a subscription by hand', () => {
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

  it('holds every event while paused (sends nothing), then sends them all in order on resume, and new ones after', async () => {
    const { id } = await subscribe(h, TENANT, `${receiver.url}/paused`);
    const paused = await as(TENANT, () => h.client.call.pauseSubscription({ id }));
    expect(paused.subscription).toMatchObject({ id, is_active: true, resuming: false });
    expect(paused.subscription!.paused_at).toBeInstanceOf(Date);
    expect(paused.subscription!.pause_expires_at!.getTime()).toBe(
      paused.subscription!.paused_at!.getTime() + 7 * 24 * 3600 * 1000,
    );
    // Pausing again keeps the first pause's time.
    const again = await as(TENANT, () => h.client.call.pauseSubscription({ id }));
    expect(again.subscription!.paused_at).toEqual(paused.subscription!.paused_at);

    await emit(h.service, 1, 6);
    await heldOf(h, id, 6);
    expect(idsReceived(receiver, '/paused')).toEqual([]);
    const shown = await as(TENANT, () => h.client.call.getSubscription({ id }));
    expect(shown.subscription).toMatchObject({ held_count: 6 });

    const resumed = await as(TENANT, () => h.client.call.resumeSubscription({ id }));
    expect(resumed.subscription!.paused_at).toBeUndefined();
    await waitFor(() => idsReceived(receiver, '/paused').length === 6 || undefined, 'six sent');
    expect(idsReceived(receiver, '/paused')).toEqual([1, 2, 3, 4, 5, 6]);
    const after = await waitFor(async () => {
      const { subscription } = await as(TENANT, () => h.client.call.getSubscription({ id }));
      return subscription!.resuming ? undefined : subscription;
    }, 'the resume to finish');
    expect(after).toMatchObject({ held_count: 0, resuming: false });
    const { deliveries } = await deliveriesOf(h, TENANT, id);
    expect(deliveries.map((d) => d.status)).toEqual(Array(6).fill('succeeded'));

    await emit(h.service, 7, 1);
    await waitFor(() => idsReceived(receiver, '/paused').length === 7 || undefined, 'the 7th');
    expect(idsReceived(receiver, '/paused')).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('resuming a subscription that is not paused changes nothing; another tenant’s id is NOT_FOUND', async () => {
    const { id } = await subscribe(h, TENANT, `${receiver.url}/idle`);
    const resumed = await as(TENANT, () => h.client.call.resumeSubscription({ id }));
    expect(resumed.subscription).toMatchObject({ resuming: false, held_count: 0 });
    expect(resumed.subscription!.paused_at).toBeUndefined();
    await expect(
      as('tenant-other', () => h.client.call.pauseSubscription({ id })),
    ).rejects.toMatchObject({ code: 5 });
    const untouched = await as(TENANT, () => h.client.call.getSubscription({ id }));
    expect(untouched.subscription!.paused_at).toBeUndefined();
  });
});

describe('held deliveries across a restart, and the pause bound', () => {
  it('loses nothing held when outbound-delivery restarts while paused: all sent in order on resume', async () => {
    const h = await startHarness();
    const receiver = await startReceiver();
    try {
      const { id } = await subscribe(h, TENANT, `${receiver.url}/restart`);
      await as(TENANT, () => h.client.call.pauseSubscription({ id }));
      await emit(h.service, 1, 5);
      await heldOf(h, id, 5);
      await h.stopReplicas();
      const restarted = await h.startReplica();
      const client = createGrpcClient(OutboundDeliveryServiceClient, restarted.grpc!.address, {
        deadlineMs: 10_000,
      });
      try {
        const shown = await as(TENANT, () => client.call.getSubscription({ id }));
        expect(shown.subscription).toMatchObject({ held_count: 5 });
        await as(TENANT, () => client.call.resumeSubscription({ id }));
        await waitFor(() => idsReceived(receiver, '/restart').length === 5 || undefined, 'sent');
        expect(idsReceived(receiver, '/restart')).toEqual([1, 2, 3, 4, 5]);
      } finally {
        client.close();
      }
    } finally {
      await receiver.stop();
      await h.stop();
    }
  });

  it('a resume cut short by a restart is carried on by the restarted service', async () => {
    const h = await startHarness();
    const receiver = await startReceiver();
    try {
      const { id } = await subscribe(h, TENANT, `${receiver.url}/cut`);
      await as(TENANT, () => h.client.call.pauseSubscription({ id }));
      await emit(h.service, 1, 4);
      await heldOf(h, id, 4);
      // The receiver holds the first released delivery open while the service stops.
      let release!: () => void;
      const opened = new Promise<void>((resolve) => (release = resolve));
      receiver.respond(
        (_request, response) => void opened.then(() => response.writeHead(200).end()),
      );
      await as(TENANT, () => h.client.call.resumeSubscription({ id }));
      await waitFor(() => receiver.requests.length >= 1 || undefined, 'the first release');
      release();
      await h.stopReplicas();
      receiver.respond((_request, response) => response.writeHead(200).end('ok'));
      await h.startReplica();
      await waitFor(
        () => new Set(idsReceived(receiver, '/cut')).size === 4 || undefined,
        'the rest sent after the restart',
      );
      expect([...new Set(idsReceived(receiver, '/cut'))]).toEqual([1, 2, 3, 4]);
    } finally {
      await receiver.stop();
      await h.stop();
    }
  });

  it('holds a retry that falls due while paused, and sends it on resume', async () => {
    // Retries 2 s apart: the pause lands between the first attempt and the retry.
    const h = await startHarness({ WEBHOOK_RETRY_DELAYS_MS: '2000,2000' });
    const receiver = await startReceiver();
    try {
      let answer = 503;
      receiver.respond((_request, response) => response.writeHead(answer).end());
      const { id } = await subscribe(h, TENANT, `${receiver.url}/retry`);
      await emit(h.service, 1, 1);
      await waitFor(() => receiver.requests.length === 1 || undefined, 'the first attempt');
      await as(TENANT, () => h.client.call.pauseSubscription({ id }));
      const [held] = await heldOf(h, id, 1);
      expect(held!.attempts.map((a) => a.response_status)).toEqual([503]);
      expect(receiver.requests).toHaveLength(1);
      answer = 200;
      await as(TENANT, () => h.client.call.resumeSubscription({ id }));
      const [sent] = await waitFor(async () => {
        const { deliveries } = await deliveriesOf(h, TENANT, id, { status: 'succeeded' });
        return deliveries.length === 1 ? deliveries : undefined;
      }, 'the held retry sent');
      expect(sent!.attempts.map((a) => a.response_status)).toEqual([503, 200]);
    } finally {
      await receiver.stop();
      await h.stop();
    }
  });

  it('a pause older than WEBHOOK_PAUSE_MAX_MS ends by itself and sends what it held', async () => {
    const h = await startHarness({ WEBHOOK_PAUSE_MAX_MS: '1500' });
    const receiver = await startReceiver();
    try {
      const { id } = await subscribe(h, TENANT, `${receiver.url}/bound`);
      await as(TENANT, () => h.client.call.pauseSubscription({ id }));
      await emit(h.service, 1, 3);
      await waitFor(() => idsReceived(receiver, '/bound').length === 3 || undefined, 'sent');
      expect(idsReceived(receiver, '/bound')).toEqual([1, 2, 3]);
      const { subscription } = await as(TENANT, () => h.client.call.getSubscription({ id }));
      expect(subscription!.paused_at).toBeUndefined();
    } finally {
      await receiver.stop();
      await h.stop();
    }
  });
});
