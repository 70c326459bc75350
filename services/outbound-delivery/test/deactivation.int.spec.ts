import { AlertRaised } from '@inventory/contracts/events/v1/alert.js';
import { ActivityRecorded } from '@inventory/contracts/events/v1/activity.js';
import { WebhookSubscriptionDeactivated } from '@inventory/contracts/events/v1/domain_events.js';
import { decodeEnvelope, type ProtoCodec } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import { as, waitFor, type Harness } from './harness.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-deactivation';

/** Every event on `subject` so far, decoded (an ordered consumer reads the stream from the start). */
async function eventsOn<T>(h: Harness, stream: string, subject: string, codec: ProtoCodec<T>) {
  const consumer = await h.service.jetstream.consumers.get(stream, {
    filterSubjects: subject,
  });
  const found: Array<{ tenantId: string; payload: T }> = [];
  const messages = await consumer.fetch({ max_messages: 1000, expires: 1000 });
  for await (const message of messages) {
    const envelope = decodeEnvelope(message.data);
    found.push({ tenantId: envelope.tenant_id, payload: codec.decode(envelope.payload) });
    if (message.info.pending === 0) break;
  }
  return found;
}

describe('25 consecutive failures', () => {
  const suite = useReceiverSuite({
    // One delivery at a time: the attempt that makes the 25th failure is then also the newest one.
    // With concurrent workers it may have started a millisecond before another worker's attempt.
    env: { DELIVERY_CONCURRENCY: '1' },
    // Data `ok: true` succeeds, anything else fails (500), so each test scripts its sequence.
    respond: (request, response) => {
      const ok =
        request.path === '/watcher' ||
        (JSON.parse(request.body) as { data: { ok?: boolean } }).data.ok === true;
      response.writeHead(ok ? 200 : 500).end();
    },
  });

  const fire = async (count: number, ok: boolean) => {
    for (let i = 0; i < count; i++) await suite.h.publish(TENANT, 'customer.created', { ok, i });
  };

  it(
    'a success resets the count: 24 failures, a success, then one failure leave it active',
    { timeout: 180_000 },
    async () => {
      const { id } = await suite.subscribe(TENANT, '/reset', ['customer.created']);
      await fire(24, false);
      await suite.settled(TENANT, id, 24);
      await fire(1, true);
      await suite.settled(TENANT, id, 25);
      await fire(1, false);
      await suite.settled(TENANT, id, 26);
      const { subscription } = await as(TENANT, () => suite.h.client.call.getSubscription({ id }));
      expect(subscription).toMatchObject({ is_active: true, consecutive_failures: 1 });
      await as(TENANT, () => suite.h.client.call.deleteSubscription({ id }));
    },
  );

  it(
    'deactivates on the 25th failed delivery and notifies the account: alert, activity row and event',
    { timeout: 180_000 },
    async () => {
      const { id } = await suite.subscribe(TENANT, '/dying', ['customer.created']);
      // The tenant's own tooling, listening for the platform's event (ADR 0413).
      await suite.subscribe(TENANT, '/watcher', ['webhook_subscription.deactivated']);
      await fire(25, false);
      const settled = await suite.settled(TENANT, id, 25);
      expect(settled.every((d) => d.status === 'failed' && d.attempts.length === 3)).toBe(true);
      const { subscription } = await as(TENANT, () => suite.h.client.call.getSubscription({ id }));
      expect(subscription).toMatchObject({
        is_active: false,
        deactivated_reason: 'consecutive_failures',
        consecutive_failures: 25,
      });

      const alerts = await waitFor(async () => {
        const found = await eventsOn(suite.h, 'ACTIVITY', 'activity.alert.raised', AlertRaised);
        return found.length > 0 ? found : undefined;
      }, 'the alert');
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.tenantId).toBe(TENANT);
      expect(alerts[0]!.payload).toMatchObject({
        kind: 'webhook_subscription_deactivated',
        priority: 'high',
      });
      const lastFailure = {
        delivery_id: expect.any(String),
        event: 'customer.created',
        attempted_at: expect.any(String),
        response_status: 500,
        error: null,
      };
      expect(JSON.parse(alerts[0]!.payload.properties_json)).toMatchObject({
        subscription_id: id,
        reason: 'consecutive_failures',
        last_failures: [lastFailure, lastFailure, lastFailure],
      });
      expect(alerts[0]!.payload.title).toBe(`Webhook subscription #${id} deactivated`);
      expect(alerts[0]!.payload.message).toMatch(
        new RegExp(
          `^Deliveries of subscription #${id} to \\S+/dying stopped because 25 consecutive deliveries failed\\. Last failures: (\\S+ customer\\.created: HTTP 500(; )?){3}\\.`,
        ),
      );
      // The newest failure first: the one that switched it off.
      const newest = settled
        .map((d) => d.attempts.at(-1)!.attempted_at!.toISOString())
        .sort()
        .at(-1);
      expect(JSON.parse(alerts[0]!.payload.properties_json).last_failures[0].attempted_at).toBe(
        newest,
      );

      const watched = await waitFor(
        () => suite.requestsTo('/watcher')[0],
        'the webhook_subscription.deactivated delivery',
      );
      expect(watched.headers['x-svc-event']).toBe('webhook_subscription.deactivated');
      expect(JSON.parse(watched.body)).toMatchObject({
        event: 'webhook_subscription.deactivated',
        data: {
          id,
          url: `${suite.receiver.url}/dying`,
          description: null,
          reason: 'consecutive_failures',
          consecutive_failures: 25,
          last_failures: [lastFailure, lastFailure, lastFailure],
        },
      });
      const activity = await waitFor(async () => {
        const found = await eventsOn(suite.h, 'ACTIVITY', 'activity.recorded', ActivityRecorded);
        return found.length > 0 ? found : undefined;
      }, 'the activity row');
      expect(activity.map((a) => a.payload)).toEqual([
        expect.objectContaining({
          event: 'webhook_subscription_deactivated',
          subject_type: 'webhook_subscription',
          subject_id: id,
        }),
      ]);
      const events = await waitFor(async () => {
        const found = await eventsOn(
          suite.h,
          'OUTBOUND',
          'outbound.webhook_subscription.deactivated',
          WebhookSubscriptionDeactivated,
        );
        return found.length > 0 ? found : undefined;
      }, 'the deactivation event');
      expect(events.map((e) => e.payload)).toEqual([
        {
          subscription_id: id,
          url: `${suite.receiver.url}/dying`,
          reason: 'consecutive_failures',
          consecutive_failures: 25,
        },
      ]);

      // Deactivated: the next event makes no delivery (a fresh subscription proves it was handled).
      const witness = await suite.subscribe(TENANT, '/witness', ['customer.created']);
      await fire(1, true);
      await suite.settled(TENANT, witness.id, 1);
      expect((await suite.deliveriesOf(TENANT, id)).total).toBe(25);

      // Re-enabled: a fresh count, and deliveries again.
      const { subscription: enabled } = await suite.update(TENANT, id, { is_active: true });
      expect(enabled).toMatchObject({ is_active: true, consecutive_failures: 0 });
      expect(enabled!.deactivated_reason).toBeUndefined();
      await fire(1, true);
      const after = await suite.settled(TENANT, id, 26);
      expect(after[0]!.status).toBe('succeeded');
    },
  );
});
