import { status } from '@grpc/grpc-js';
import { describeCallError } from '@inventory/platform';
import { startTcpProxy, waitFor, type TcpProxy } from '@inventory/local-infra';
import { withCommandMonitoring } from '@inventory/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { clientOf, connect, finished, startHarness, type Service } from './harness.js';
import { SIM_KEY } from './provider-pushes.js';

const TENANT = 'tenant-store-outage';
const INSTANCE = 51;

/**
 * MongoDB lost mid-batch (killed or restarting: its connections reset) refuses each webhook of
 * an IngestWebhooks batch UNAVAILABLE, which the gateway answers as a JSON 503 and the provider
 * retries, never INTERNAL (a 500); the retried pushes are then stored once each.
 */
describe('webhook-ingest: a batch when MongoDB drops its connections', () => {
  let h: Awaited<ReturnType<typeof startHarness>>;
  let proxy: TcpProxy;
  let service: Service;
  let client: ReturnType<typeof clientOf>;
  /** The service's updates of `webhook_events`, one per statement. */
  const updates: Array<{ q: Record<string, unknown>; u: Record<string, unknown> }> = [];

  beforeAll(async () => {
    h = await startHarness();
    proxy = await startTcpProxy(h.env.MONGO_URL!);
    service = await bootstrap({
      ...h.env,
      MONGO_URL: withCommandMonitoring(proxy.through(h.env.MONGO_URL!)),
    });
    service.mongo!.getClient().on('commandStarted', (event) => {
      const command = event.command as Record<string, unknown>;
      if (event.commandName === 'update' && command.update === 'webhook_events')
        updates.push(...(command.updates as typeof updates));
    });
    client = clientOf(service.grpc!.address);
  });
  /**
   * The instance's token, registered once the store answers. On a loaded machine the store watch
   * can find a ping late and refuse a call UNAVAILABLE, as it should; a caller retries it.
   */
  const connected = async (instance: number): Promise<string> =>
    waitFor<string>(
      () =>
        connect(client, h.fake, TENANT, instance, SIM_KEY).catch((error: unknown) => {
          if (describeCallError(error).code === status.UNAVAILABLE) return false;
          throw error;
        }),
      'the token registered',
    );
  const storeAnswering = () => waitFor(() => !service.store.stalled(), 'the store answering');

  afterAll(async () => {
    client?.close();
    await service?.stop();
    await proxy?.close();
    await h?.fake.stop();
    await h?.infra.stop();
  });

  it('refuses UNAVAILABLE (never INTERNAL) each webhook whose insert the drop failed; each retry is stored once', async () => {
    const token = await connected(INSTANCE);
    const numbers = ['1ZOUTAGE0001', '1ZOUTAGE0002', '1ZOUTAGE0003'];
    const batch = {
      webhooks: numbers.map((number) => ({
        token,
        provider: 'parcel-tracking',
        raw_body: Buffer.from(JSON.stringify({ event: 'TRACKING_UPDATED', data: { number } })),
        content_type: 'application/json',
      })),
    };

    // The first insert of the batch has left for MongoDB when its connection drops.
    await storeAnswering();
    proxy.stall('1ZOUTAGE');
    const batchAnswer = client.call.ingestWebhooks(batch);
    await waitFor(() => proxy.held().includes('1ZOUTAGE'), 'a webhook insert sent');
    proxy.cut();
    proxy.resume();
    // The same reset can also stall the store watch before the batch answers: then the whole
    // call is refused UNAVAILABLE, every push of it refused as one (ADR 0743).
    const answered = await batchAnswer.catch((error: unknown) => {
      const refusal = describeCallError(error);
      expect(refusal.code).toBe(status.UNAVAILABLE);
      return {
        results: batch.webhooks.map(() => ({
          answer: undefined,
          error: {
            code: status.UNAVAILABLE,
            reason: 'service_unavailable',
            violations: [],
            message: refusal.message,
          },
        })),
        wholeCall: true,
      };
    });
    const { results } = answered;
    expect(results).toHaveLength(3);
    // Pushes of the batch stored after the cut (on a new connection) are acknowledged.
    const refused = results.flatMap((result, index) => (result.error ? [index] : []));
    expect(refused.length).toBeGreaterThan(0);
    for (const index of refused) {
      expect(results[index]!.error).toMatchObject({
        code: status.UNAVAILABLE,
        reason: 'service_unavailable',
        violations: [],
      });
      // Either rule may answer first: the insert's own failure (unreachable), or the store watch,
      // whose ping on its own connection the same reset can fail (ADR 0743).
      expect([
        'A data store is unreachable; try again shortly.',
        "The service's database is not answering; retry later.",
      ]).toContain(results[index]!.error!.message);
    }

    // Counted as the provider was answered: unavailable (it retries), not an error.
    const received = await service.metrics.registry.getSingleMetricAsString(
      'webhook_ingest_received_total',
    );
    if (!('wholeCall' in answered))
      expect(received).toContain(
        `webhook_ingest_received_total{result="unavailable",service="webhook-ingest"} ${refused.length}`,
      );
    expect(received).not.toContain('result="error"');

    // The provider retries what was refused, later: once the store answers the service again.
    await waitFor(() => !service.store.stalled(), 'the store answers again');
    const retried = await client.call.ingestWebhooks({
      webhooks: refused.map((index) => batch.webhooks[index]!),
    });
    const answers = [...results, ...retried.results].flatMap((result) =>
      result.answer ? [result.answer] : [],
    );
    expect(answers).toHaveLength(3);
    for (const answer of answers) {
      expect(answer.rejection).toBe('');
      expect((await finished(service, answer.webhook_event_id)).result).not.toBe('failed');
    }
    const stored = await service
      .mongo!.collection('webhook_events')
      .find({ tenant_id: TENANT, tracking_number: { $in: numbers } })
      .toArray();
    expect(stored.map((row) => row.tracking_number).sort()).toEqual(numbers);
  }, 60_000);

  // ADR 0743: a frozen MongoDB (every connection holds, nothing answers) got the push answered
  // 503 at the caller's deadline, and then the insert landed and the row was processed: the
  // provider's retry became a second row, ignored as a duplicate of a push it was told failed.
  it('answers a push in flight when the store stalls 503 at once; the row that lands later is kept unprocessed and the retry is processed', async () => {
    const token = await connected(INSTANCE + 1);
    const number = '1ZSTALLED0001';
    const push = {
      token,
      provider: 'parcel-tracking',
      raw_body: Buffer.from(JSON.stringify({ event: 'TRACKING_UPDATED', data: { number } })),
      content_type: 'application/json',
    };
    // A deadline the test's timeout would end first: only the store watch answers in time.
    const patient = clientOf(service.grpc!.address, 120_000);
    try {
      // The insert leaves for MongoDB and is held; then the whole server freezes.
      await storeAnswering();
      proxy.stall(number);
      const answer = patient.call.ingestWebhook(push).catch((error: unknown) => error);
      await waitFor(() => proxy.held().includes(number), 'the insert sent');
      proxy.stall();
      const refused = describeCallError(await answer);
      expect(refused.code).toBe(status.UNAVAILABLE);
      expect(refused.message).toBe("The service's database is not answering; retry later.");
    } finally {
      proxy.resume();
      patient.close();
    }

    const rows = service.mongo!.collection('webhook_events');
    await waitFor(
      async () =>
        (await rows.findOne({ tenant_id: TENANT, tracking_number: number }))?.state === 'done',
      'the held row landed and was marked',
    );
    const late = await rows.findOne({ tenant_id: TENANT, tracking_number: number });
    expect(late).toMatchObject({
      state: 'done',
      result: 'ignored',
      dedupe_key: `late:${late!.id}`,
      error_message:
        'Stored after the push had been answered 503 (the database did not answer in time); not applied: the provider sends it again.',
    });
    // Giving up the dedupe key changes the row's shard key: the write names the whole current
    // key, as a sharded cluster requires of it (deploy/SCALING.md).
    const marking = updates.filter((update) =>
      JSON.stringify(update.u).includes(`late:${late!.id}`),
    );
    expect(marking).toHaveLength(1);
    expect(marking[0]!.q).toMatchObject({
      tenant_id: TENANT,
      integration_instance_id: INSTANCE + 1,
      // The key it had as the original: the tenant, the instance and the payload's identity.
      dedupe_key: expect.stringMatching(new RegExp(`^${TENANT}:${INSTANCE + 1}:.`)),
      id: late!.id,
    });

    // The provider's retry is the push processed, not a duplicate of the unacknowledged row.
    await waitFor(async () => {
      const answer = await client.call.ingestWebhook(push).catch(() => null);
      return answer !== null && answer.rejection === '' ? answer : false;
    }, 'the retry accepted once the store answers');
    const retried = await rows.findOne({
      tenant_id: TENANT,
      tracking_number: number,
      id: { $ne: late!.id },
    });
    expect(retried?.duplicate_of ?? null).toBeNull();
    expect((await finished(service, retried!.id as number)).result).not.toBe('failed');
  }, 60_000);
});
