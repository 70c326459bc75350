import { describe, expect, it } from 'vitest';
import { as, clientAt, failureOf, waitFor } from './harness.js';
import {
  useReceiverSuite,
  withReceiverSuite,
  type ReceiverSuite,
  type SuiteOptions,
} from './suite.js';

const TENANT = 'tenant-recover';

/** 4 deliveries a minute, the cap's minute read from `minute` (moved by hand). */
const fourAMinute = (minute: () => number): SuiteOptions => ({
  env: { WEBHOOK_RATE_PER_MINUTE: '4' },
  bootstrap: { clock: () => minute() * 60_000 + 1_000 },
});

/** How many times the receiver got each delivery id. */
function sendsPerDelivery(suite: ReceiverSuite) {
  const perDelivery = new Map<string, number>();
  for (const request of suite.receiver.requests) {
    const key = request.headers['x-svc-delivery-id'] as string;
    perDelivery.set(key, (perDelivery.get(key) ?? 0) + 1);
  }
  return [...perDelivery.values()];
}

/**
 * Six deliveries to `path` that failed (the receiver answering 503), three in each of the cap's
 * minutes 0 and 1; answers the subscription, the time before them, and a switch to answer 200.
 */
async function sixFailed(suite: ReceiverSuite, path: string, setMinute: (minute: number) => void) {
  let answer = 503;
  suite.receiver.respond((_request, response) => response.writeHead(answer).end());
  const { id } = await suite.subscribe(TENANT, path);
  const before = new Date(Date.now() - 1000);
  for (const batch of [0, 1]) {
    setMinute(batch);
    for (let n = 0; n < 3; n += 1)
      await suite.h.publish(TENANT, 'sales_order.created', { n, batch });
    await suite.settled(TENANT, id, 3 * (batch + 1));
  }
  return { id, before, answerOk: () => (answer = 200) };
}

describe('recover: every failed delivery since a time, sent again under the cap', () => {
  // The cap's minute, moved by hand: 4 deliveries a minute.
  let minute = 0;
  const suite = useReceiverSuite(fourAMinute(() => minute));

  it('re-sends each failed delivery once, waits for the next minute when the cap is spent (never drops), and reports progress', async () => {
    const { id, before, answerOk } = await sixFailed(suite, '/recover', (m) => (minute = m));
    const { deliveries } = await suite.deliveriesOf(TENANT, id);
    expect(deliveries.map((d) => d.status)).toEqual(Array(6).fill('failed'));
    expect(suite.receiver.requests).toHaveLength(18);

    answerOk();
    minute = 2;
    const started = await as(TENANT, () =>
      suite.h.client.call.recoverDeliveries({ subscription_id: id, since: before }),
    );
    expect(started.job).toMatchObject({ subscription_id: id, found: 6, status: 'running' });
    const jobId = started.job!.id;
    const progress = () =>
      as(TENANT, () => suite.h.client.call.getRecoverJob({ subscription_id: id, job_id: jobId }));
    // Four slots this minute: four sent and delivered, two waiting (still failed, not dropped).
    await waitFor(async () => {
      const { job } = await progress();
      return job!.sent === 4 && job!.succeeded === 4 ? job : undefined;
    }, 'four re-sent this minute');
    expect((await progress()).job).toMatchObject({ status: 'running', found: 6, sent: 4 });
    expect((await suite.deliveriesOf(TENANT, id, { status: 'dropped' })).total).toBe(0);
    expect((await suite.deliveriesOf(TENANT, id, { status: 'failed' })).total).toBe(2);

    minute = 3;
    const done = await waitFor(async () => {
      const { job } = await progress();
      return job!.status === 'completed' && job!.succeeded === 6 ? job : undefined;
    }, 'the recover to complete');
    expect(done).toMatchObject({ found: 6, sent: 6, succeeded: 6, failed: 0, pending: 0 });
    expect(done.finished_at).toBeInstanceOf(Date);
    // None doubled: each delivery reached the receiver 3 times failing, then once more.
    expect(sendsPerDelivery(suite)).toEqual(Array(6).fill(4));
  });

  it('refuses an inactive subscription, a missing since, and another tenant’s ids', async () => {
    const { id } = await suite.subscribe(TENANT, '/inactive');
    expect(
      (
        await failureOf(
          as(TENANT, () => suite.h.client.call.recoverDeliveries({ subscription_id: id })),
        )
      ).reason,
    ).toBe('validation_failed');
    await suite.update(TENANT, id, { is_active: false });
    expect(
      (
        await failureOf(
          as(TENANT, () =>
            suite.h.client.call.recoverDeliveries({ subscription_id: id, since: new Date(0) }),
          ),
        )
      ).reason,
    ).toBe('subscription_inactive');
    expect(
      (
        await failureOf(
          as('tenant-else', () =>
            suite.h.client.call.recoverDeliveries({ subscription_id: id, since: new Date(0) }),
          ),
        )
      ).reason,
    ).toBe('not_found');
  });
});

describe('a recover across a restart of outbound-delivery', () => {
  it('is carried on by the restarted service from its position, sending none twice', async () => {
    let minute = 0;
    await withReceiverSuite(
      fourAMinute(() => minute),
      async (suite) => {
        const { id, before, answerOk } = await sixFailed(suite, '/restart', (m) => (minute = m));
        answerOk();
        minute = 2;
        const { job } = await as(TENANT, () =>
          suite.h.client.call.recoverDeliveries({ subscription_id: id, since: before }),
        );
        await suite.succeeded(TENANT, id, 4);
        await suite.h.stopReplicas();
        minute = 3;
        const restarted = await suite.h.startReplica();
        const client = clientAt(restarted.grpc!.address, 10_000);
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
        expect(sendsPerDelivery(suite)).toEqual(Array(6).fill(4));
      },
    );
  });
});
