import { OutboundDeliveryServiceClient } from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import { createGrpcClient } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  deliveriesOf,
  failureOf,
  settledDeliveries,
  startHarness,
  subscribe,
  waitFor,
  type Harness,
} from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

const TENANT = 'tenant-recover';

describe('recover: every failed delivery since a time, sent again under the cap', () => {
  let h: Harness;
  let receiver: Receiver;
  // The cap's minute, moved by hand: 4 deliveries a minute.
  let minute = 0;
  beforeAll(async () => {
    h = await startHarness(
      { WEBHOOK_RATE_PER_MINUTE: '4' },
      { clock: () => minute * 60_000 + 1_000 },
    );
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
    await h?.stop();
  });

  it('re-sends each failed delivery once, waits for the next minute when the cap is spent (never drops), and reports progress', async () => {
    let answer = 503;
    receiver.respond((_request, response) => response.writeHead(answer).end());
    const { id } = await subscribe(h, TENANT, `${receiver.url}/recover`);
    const before = new Date(Date.now() - 1000);
    for (const batch of [0, 1]) {
      minute = batch;
      for (let n = 0; n < 3; n += 1) await h.publish(TENANT, 'sales_order.created', { n, batch });
      await settledDeliveries(h, TENANT, id, 3 * (batch + 1));
    }
    const { deliveries } = await deliveriesOf(h, TENANT, id);
    expect(deliveries.map((d) => d.status)).toEqual(Array(6).fill('failed'));
    expect(receiver.requests).toHaveLength(18);

    answer = 200;
    minute = 2;
    const started = await as(TENANT, () =>
      h.client.call.recoverDeliveries({ subscription_id: id, since: before }),
    );
    expect(started.job).toMatchObject({ subscription_id: id, found: 6, status: 'running' });
    const jobId = started.job!.id;
    const progress = () =>
      as(TENANT, () => h.client.call.getRecoverJob({ subscription_id: id, job_id: jobId }));
    // Four slots this minute: four sent and delivered, two waiting (still failed, not dropped).
    await waitFor(async () => {
      const { job } = await progress();
      return job!.sent === 4 && job!.succeeded === 4 ? job : undefined;
    }, 'four re-sent this minute');
    expect((await progress()).job).toMatchObject({ status: 'running', found: 6, sent: 4 });
    expect((await deliveriesOf(h, TENANT, id, { status: 'dropped' })).total).toBe(0);
    expect((await deliveriesOf(h, TENANT, id, { status: 'failed' })).total).toBe(2);

    minute = 3;
    const done = await waitFor(async () => {
      const { job } = await progress();
      return job!.status === 'completed' && job!.succeeded === 6 ? job : undefined;
    }, 'the recover to complete');
    expect(done).toMatchObject({ found: 6, sent: 6, succeeded: 6, failed: 0, pending: 0 });
    expect(done.finished_at).toBeInstanceOf(Date);
    // None doubled: each delivery reached the receiver 3 times failing, then once more.
    const perDelivery = new Map<string, number>();
    for (const request of receiver.requests) {
      const key = request.headers['x-svc-delivery-id'] as string;
      perDelivery.set(key, (perDelivery.get(key) ?? 0) + 1);
    }
    expect([...perDelivery.values()]).toEqual(Array(6).fill(4));
  });

  it('refuses an inactive subscription, a missing since, and another tenant’s ids', async () => {
    const { id } = await subscribe(h, TENANT, `${receiver.url}/inactive`);
    expect(
      (await failureOf(as(TENANT, () => h.client.call.recoverDeliveries({ subscription_id: id }))))
        .reason,
    ).toBe('validation_failed');
    await as(TENANT, () =>
      h.client.call.updateSubscription({
        id,
        events: [],
        has_events: false,
        clear_description: false,
        is_active: false,
        input_violations: [],
      }),
    );
    expect(
      (
        await failureOf(
          as(TENANT, () =>
            h.client.call.recoverDeliveries({ subscription_id: id, since: new Date(0) }),
          ),
        )
      ).reason,
    ).toBe('subscription_inactive');
    expect(
      (
        await failureOf(
          as('tenant-else', () =>
            h.client.call.recoverDeliveries({ subscription_id: id, since: new Date(0) }),
          ),
        )
      ).reason,
    ).toBe('not_found');
  });
});

describe('a recover across a restart of outbound-delivery', () => {
  it('is carried on by the restarted service from its position, sending none twice', async () => {
    let minute = 0;
    const h = await startHarness(
      { WEBHOOK_RATE_PER_MINUTE: '4' },
      { clock: () => minute * 60_000 + 1_000 },
    );
    const receiver = await startReceiver();
    try {
      let answer = 503;
      receiver.respond((_request, response) => response.writeHead(answer).end());
      const { id } = await subscribe(h, TENANT, `${receiver.url}/restart`);
      const before = new Date(Date.now() - 1000);
      for (const batch of [0, 1]) {
        minute = batch;
        for (let n = 0; n < 3; n += 1) await h.publish(TENANT, 'sales_order.created', { n, batch });
        await settledDeliveries(h, TENANT, id, 3 * (batch + 1));
      }
      answer = 200;
      minute = 2;
      const { job } = await as(TENANT, () =>
        h.client.call.recoverDeliveries({ subscription_id: id, since: before }),
      );
      await waitFor(async () => {
        const { deliveries } = await deliveriesOf(h, TENANT, id, { status: 'succeeded' });
        return deliveries.length === 4 || undefined;
      }, 'four re-sent before the restart');
      await h.stopReplicas();
      minute = 3;
      const restarted = await h.startReplica();
      const client = createGrpcClient(OutboundDeliveryServiceClient, restarted.grpc!.address, {
        deadlineMs: 10_000,
      });
      try {
        const done = await waitFor(async () => {
          const progress = await as(TENANT, () =>
            client.call.getRecoverJob({ subscription_id: id, job_id: job!.id }),
          );
          return progress.job!.status === 'completed' && progress.job!.succeeded === 6
            ? progress.job
            : undefined;
        }, 'the recover carried on');
        expect(done).toMatchObject({ found: 6, sent: 6, succeeded: 6 });
      } finally {
        client.close();
      }
      const perDelivery = new Map<string, number>();
      for (const request of receiver.requests) {
        const key = request.headers['x-svc-delivery-id'] as string;
        perDelivery.set(key, (perDelivery.get(key) ?? 0) + 1);
      }
      expect([...perDelivery.values()]).toEqual(Array(6).fill(4));
    } finally {
      await receiver.stop();
      await h.stop();
    }
  });
});
