import { domainEventEntry } from '@inventory/events';
import { describe, expect, it } from 'vitest';
import { as, clientAt, waitFor, type Service } from './harness.js';
import { useReceiverSuite, withReceiverSuite, type ReceiverSuite } from './suite.js';

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

const idsReceived = (suite: ReceiverSuite, path: string) =>
  suite.bodiesTo<{ data: { id: number } }>(path).map((body) => body.data.id);

const heldOf = async (suite: ReceiverSuite, id: number, count: number) =>
  waitFor(async () => {
    const { deliveries } = await suite.deliveriesOf(TENANT, id, { status: 'held' });
    return deliveries.length === count ? deliveries : undefined;
  }, `${count} held deliveries`);

describe('pausing and resuming a subscription by hand', () => {
  const suite = useReceiverSuite();

  it('holds every event while paused (sends nothing), then sends them all in order on resume, and new ones after', async () => {
    const { id } = await suite.subscribe(TENANT, '/paused');
    const paused = await as(TENANT, () => suite.h.client.call.pauseSubscription({ id }));
    expect(paused.subscription).toMatchObject({ id, is_active: true, resuming: false });
    expect(paused.subscription!.paused_at).toBeInstanceOf(Date);
    expect(paused.subscription!.pause_expires_at!.getTime()).toBe(
      paused.subscription!.paused_at!.getTime() + 7 * 24 * 3600 * 1000,
    );
    // Pausing again keeps the first pause's time.
    const again = await as(TENANT, () => suite.h.client.call.pauseSubscription({ id }));
    expect(again.subscription!.paused_at).toEqual(paused.subscription!.paused_at);

    await emit(suite.h.service, 1, 6);
    await heldOf(suite, id, 6);
    expect(idsReceived(suite, '/paused')).toEqual([]);
    const shown = await as(TENANT, () => suite.h.client.call.getSubscription({ id }));
    expect(shown.subscription).toMatchObject({ held_count: 6 });

    const resumed = await as(TENANT, () => suite.h.client.call.resumeSubscription({ id }));
    expect(resumed.subscription!.paused_at).toBeUndefined();
    await waitFor(() => idsReceived(suite, '/paused').length === 6 || undefined, 'six sent');
    expect(idsReceived(suite, '/paused')).toEqual([1, 2, 3, 4, 5, 6]);
    const after = await waitFor(async () => {
      const { subscription } = await as(TENANT, () => suite.h.client.call.getSubscription({ id }));
      return subscription!.resuming ? undefined : subscription;
    }, 'the resume to finish');
    expect(after).toMatchObject({ held_count: 0, resuming: false });
    const { deliveries } = await suite.deliveriesOf(TENANT, id);
    expect(deliveries.map((d) => d.status)).toEqual(Array(6).fill('succeeded'));

    await emit(suite.h.service, 7, 1);
    await waitFor(() => idsReceived(suite, '/paused').length === 7 || undefined, 'the 7th');
    expect(idsReceived(suite, '/paused')).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('resuming a subscription that is not paused changes nothing; another tenant’s id is NOT_FOUND', async () => {
    const { id } = await suite.subscribe(TENANT, '/idle');
    const resumed = await as(TENANT, () => suite.h.client.call.resumeSubscription({ id }));
    expect(resumed.subscription).toMatchObject({ resuming: false, held_count: 0 });
    expect(resumed.subscription!.paused_at).toBeUndefined();
    await expect(
      as('tenant-other', () => suite.h.client.call.pauseSubscription({ id })),
    ).rejects.toMatchObject({ code: 5 });
    const untouched = await as(TENANT, () => suite.h.client.call.getSubscription({ id }));
    expect(untouched.subscription!.paused_at).toBeUndefined();
  });
});

describe('held deliveries across a restart, and the pause bound', () => {
  it('loses nothing held when outbound-delivery restarts while paused: all sent in order on resume', async () => {
    await withReceiverSuite({}, async (suite) => {
      const { id } = await suite.subscribe(TENANT, '/restart');
      await as(TENANT, () => suite.h.client.call.pauseSubscription({ id }));
      await emit(suite.h.service, 1, 5);
      await heldOf(suite, id, 5);
      await suite.h.stopReplicas();
      const restarted = await suite.h.startReplica();
      const client = clientAt(restarted.grpc!.address, 10_000);
      try {
        const shown = await as(TENANT, () => client.call.getSubscription({ id }));
        expect(shown.subscription).toMatchObject({ held_count: 5 });
        await as(TENANT, () => client.call.resumeSubscription({ id }));
        await waitFor(() => idsReceived(suite, '/restart').length === 5 || undefined, 'sent');
        expect(idsReceived(suite, '/restart')).toEqual([1, 2, 3, 4, 5]);
      } finally {
        client.close();
      }
    });
  });

  it('a resume cut short by a restart is carried on by the restarted service', async () => {
    await withReceiverSuite({}, async (suite) => {
      const { id } = await suite.subscribe(TENANT, '/cut');
      await as(TENANT, () => suite.h.client.call.pauseSubscription({ id }));
      await emit(suite.h.service, 1, 4);
      await heldOf(suite, id, 4);
      // The receiver holds the first released delivery open while the service stops.
      let release!: () => void;
      const opened = new Promise<void>((resolve) => (release = resolve));
      suite.receiver.respond(
        (_request, response) => void opened.then(() => response.writeHead(200).end()),
      );
      await as(TENANT, () => suite.h.client.call.resumeSubscription({ id }));
      await waitFor(() => suite.receiver.requests.length >= 1 || undefined, 'the first release');
      release();
      await suite.h.stopReplicas();
      suite.receiver.respond((_request, response) => response.writeHead(200).end('ok'));
      await suite.h.startReplica();
      await waitFor(
        () => new Set(idsReceived(suite, '/cut')).size === 4 || undefined,
        'the rest sent after the restart',
      );
      expect([...new Set(idsReceived(suite, '/cut'))]).toEqual([1, 2, 3, 4]);
    });
  });

  it('holds a retry that falls due while paused, and sends it on resume', async () => {
    // Retries 2 s apart: the pause lands between the first attempt and the retry.
    await withReceiverSuite({ env: { WEBHOOK_RETRY_DELAYS_MS: '2000,2000' } }, async (suite) => {
      let answer = 503;
      suite.receiver.respond((_request, response) => response.writeHead(answer).end());
      const { id } = await suite.subscribe(TENANT, '/retry');
      await emit(suite.h.service, 1, 1);
      await waitFor(() => suite.receiver.requests.length === 1 || undefined, 'the first attempt');
      await as(TENANT, () => suite.h.client.call.pauseSubscription({ id }));
      const [held] = await heldOf(suite, id, 1);
      expect(held!.attempts.map((a) => a.response_status)).toEqual([503]);
      expect(suite.receiver.requests).toHaveLength(1);
      answer = 200;
      await as(TENANT, () => suite.h.client.call.resumeSubscription({ id }));
      const [sent] = await suite.succeeded(TENANT, id, 1);
      expect(sent!.attempts.map((a) => a.response_status)).toEqual([503, 200]);
    });
  });

  it('a pause older than WEBHOOK_PAUSE_MAX_MS ends by itself and sends what it held', async () => {
    await withReceiverSuite({ env: { WEBHOOK_PAUSE_MAX_MS: '1500' } }, async (suite) => {
      const { id } = await suite.subscribe(TENANT, '/bound');
      await as(TENANT, () => suite.h.client.call.pauseSubscription({ id }));
      await emit(suite.h.service, 1, 3);
      await waitFor(() => idsReceived(suite, '/bound').length === 3 || undefined, 'sent');
      expect(idsReceived(suite, '/bound')).toEqual([1, 2, 3]);
      const { subscription } = await as(TENANT, () => suite.h.client.call.getSubscription({ id }));
      expect(subscription!.paused_at).toBeUndefined();
    });
  });
});
