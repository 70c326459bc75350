import {
  ACTIVITY_STREAM,
  anyDomainEvent,
  DOMAIN_STREAM,
  IDENTITY_STREAM,
  OUTBOUND_STREAM,
  userChanged,
} from '@inventory/events';
import {
  applyRetention,
  connectRedis,
  dropRetiredIndexes,
  GroupCommitQueue,
  SecretBox,
  ServiceRuntime,
  startBatchConsumer,
  startConsumer,
} from '@inventory/platform';
import { readConfig } from './config.js';
import { AttemptSlots } from './delivery/attempt-slots.js';
import { DeliveryMetrics } from './delivery/delivery-metrics.js';
import { systemResolve } from './delivery/guarded-lookup.js';
import { HttpSender } from './delivery/http-sender.js';
import { RateCap } from './delivery/rate-cap.js';
import type { Resolve } from './domain/receiver-url.js';
import { RECORD_WEBHOOK_EVENTS, webhookEventOfRecord } from './domain/record-webhook-events.js';
import { webhookEventOfDomainEvent, type WebhookEvent } from './domain/webhook-event.js';
import { outboundDeliveryService } from './grpc/outbound-delivery-service.js';
import { SubscriptionView } from './grpc/subscription-view.js';
import { DeliveryRepository } from './store/delivery-repository.js';
import { type Settle } from './store/delivery.js';
import { RecoverJobRepository } from './store/recover-job-repository.js';
import { SubscriptionRepository } from './store/subscription-repository.js';
import { AttemptDelivery } from './use-cases/attempt-delivery.js';
import { CreateSubscription } from './use-cases/create-subscription.js';
import { DeactivateSubscription } from './use-cases/deactivate-subscription.js';
import { DeleteSubscription } from './use-cases/delete-subscription.js';
import { FanOutEvent } from './use-cases/fan-out-event.js';
import { GetSubscriptionHealth } from './use-cases/get-subscription-health.js';
import { GetSubscription } from './use-cases/get-subscription.js';
import { ListDeliveries } from './use-cases/list-deliveries.js';
import { ListSubscriptions } from './use-cases/list-subscriptions.js';
import { PauseSubscription } from './use-cases/pause-subscription.js';
import type { ReceiverRules } from './use-cases/receiver-rules.js';
import { RecoverDeliveries } from './use-cases/recover-deliveries.js';
import { GetDelivery } from './use-cases/get-delivery.js';
import { Redeliver } from './use-cases/redeliver.js';
import { ResumeSubscription } from './use-cases/resume-subscription.js';
import { RotateSecret } from './use-cases/rotate-secret.js';
import { SendTestPing } from './use-cases/send-test-ping.js';
import { UpdateSubscription } from './use-cases/update-subscription.js';
import { DeliveryWorker } from './workers/delivery-worker.js';
import { HeldDeliveries } from './workers/held-deliveries.js';
import { RecoverJobs } from './workers/recover-jobs.js';

export const SERVICE_NAME = 'outbound-delivery';
export { WEBHOOK_SUBSCRIPTION_SUBJECT } from './use-cases/deactivate-subscription.js';

/**
 * Fan-out batches handled at once, each of at most 4 × DELIVERY_CONCURRENCY events: bigger
 * batches cost fewer round trips per delivery (32 → 128 events: service CPU per delivery
 * 0.54 → 0.41 ms in the bench), and a batch stuck on a slow receiver leaves the others going.
 */
const FAN_OUT_BATCHES = 8;

export interface BootstrapOptions {
  /** Tests only: how receiver host names resolve (default: the system resolver). */
  resolve?: Resolve;
  /** Tests only: the clock the per-tenant cap reads its minute from (default: `Date.now`). */
  clock?: () => number;
}

/**
 * Wires the service and starts serving; the returned runtime's `stop()` drains and closes. A
 * failed wiring step (Redis unreachable, a consumer that cannot bind) stops what was started
 * (ServiceRuntime.run).
 */
export async function bootstrap(
  env: NodeJS.ProcessEnv = process.env,
  options: BootstrapOptions = {},
): Promise<ServiceRuntime> {
  const config = readConfig(env);
  return ServiceRuntime.run(
    {
      name: SERVICE_NAME,
      config,
      dbName: config.MONGO_DB,
      streams: [
        DOMAIN_STREAM,
        OUTBOUND_STREAM,
        ACTIVITY_STREAM,
        IDENTITY_STREAM,
        ...new Set(RECORD_WEBHOOK_EVENTS.map((source) => source.stream)),
      ],
    },
    async (runtime) => {
      // Registered first, so it closes last: after gRPC has drained and the worker stopped.
      const redis = await connectRedis(config.REDIS_URL, runtime.logger);
      runtime.onStop(async () => (redis.status === 'ready' ? redis.quit() : redis.disconnect()));

      const subscriptions = new SubscriptionRepository(runtime.mongo);
      const deliveries = new DeliveryRepository(runtime.mongo);
      await dropRetiredIndexes(runtime.logger, deliveries);
      await applyRetention(runtime.logger, deliveries.retention(config.DELIVERY_RETENTION_DAYS));
      const secretBox = new SecretBox(config.WEBHOOK_SECRET_ENCRYPTION_KEY);
      const receivers: ReceiverRules = {
        policy: {
          allowHttp: config.WEBHOOK_ALLOW_HTTP,
          allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
        },
        resolve: options.resolve ?? systemResolve,
      };
      const sender = new HttpSender({
        ...receivers,
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        responseBodyLimitBytes: config.WEBHOOK_RESPONSE_BODY_LIMIT_BYTES,
      });
      runtime.onStop(async () => sender.close());
      // Settles by group commit (ADR 0406): one bulk write for the attempts that end together.
      // Stopped after the worker (registered before it), so the last attempts' settles are written.
      const settles = new GroupCommitQueue((batch: Settle[]) => deliveries.settleMany(batch));
      runtime.onStop(() => settles.stop());
      const metrics = new DeliveryMetrics(runtime.metrics.registry);
      const rateCap = new RateCap(redis, config.WEBHOOK_RATE_PER_MINUTE, options.clock);
      const attempt = new AttemptDelivery(
        { subscriptions, settles },
        sender,
        rateCap,
        secretBox,
        new DeactivateSubscription(subscriptions, deliveries, runtime.outbox),
        {
          shortName: config.WEBHOOK_SHORT_NAME,
          maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
          retryDelaysMs: config.WEBHOOK_RETRY_DELAYS_MS,
          deactivateAfterFailures: config.WEBHOOK_DEACTIVATE_AFTER_FAILURES,
        },
        metrics,
        runtime.logger,
      );
      const worker = new DeliveryWorker(
        deliveries,
        (batch) => attempt.executeAll(batch),
        {
          pollMs: config.DELIVERY_POLL_MS,
          // Idle, a replica looks ten times less often; new work wakes it at once (ADR 0715).
          idlePollMs: config.DELIVERY_POLL_MS * 10,
          concurrency: config.DELIVERY_CONCURRENCY,
          leaseMs: config.DELIVERY_LEASE_MS,
          attemptTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
        },
        runtime.logger,
      );
      const wake = () => worker.wake();
      const recoverJobRepository = new RecoverJobRepository(runtime.mongo);
      const recoverJobs = new RecoverJobs(
        recoverJobRepository,
        deliveries,
        rateCap,
        wake,
        runtime.logger,
      );
      const held = new HeldDeliveries(
        subscriptions,
        deliveries,
        (batch) => attempt.executeAll(batch),
        {
          pauseMaxMs: config.WEBHOOK_PAUSE_MAX_MS,
          // A minute in production; short bounds (tests) are looked at as often as they need.
          sweepMs: Math.min(60_000, Math.max(25, Math.floor(config.WEBHOOK_PAUSE_MAX_MS / 4))),
          leaseMs: config.DELIVERY_LEASE_MS,
        },
        runtime.logger,
      );

      await runtime.serve([
        outboundDeliveryService(
          {
            createSubscription: new CreateSubscription(subscriptions, secretBox, receivers),
            listSubscriptions: new ListSubscriptions(subscriptions),
            getSubscription: new GetSubscription(subscriptions),
            updateSubscription: new UpdateSubscription(subscriptions, receivers),
            deleteSubscription: new DeleteSubscription(subscriptions, deliveries),
            rotateSecret: new RotateSecret(
              subscriptions,
              secretBox,
              config.WEBHOOK_SECRET_OVERLAP_MS,
            ),
            listDeliveries: new ListDeliveries(subscriptions, deliveries),
            getDelivery: new GetDelivery(deliveries),
            redeliver: new Redeliver(subscriptions, deliveries, wake),
            sendTestPing: new SendTestPing(subscriptions, deliveries, wake),
            pauseSubscription: new PauseSubscription(subscriptions),
            resumeSubscription: new ResumeSubscription(subscriptions, held),
            recoverDeliveries: new RecoverDeliveries(
              subscriptions,
              deliveries,
              recoverJobRepository,
              recoverJobs,
            ),
            getSubscriptionHealth: new GetSubscriptionHealth(
              new GetSubscription(subscriptions),
              deliveries,
            ),
          },
          new SubscriptionView(deliveries, config.WEBHOOK_PAUSE_MAX_MS),
        ),
      ]);

      // Stopped after the consumer, which finishes its batches first: a first attempt whose
      // subscription change must come first is settled through the same settles.
      worker.start();
      runtime.onStop(() => worker.stop());
      // Stopped before the worker and the settles: a release in flight finishes its attempt.
      held.start();
      runtime.onStop(() => held.stop());
      await recoverJobs.start();
      runtime.onStop(() => recoverJobs.stop());
      const fanOut = new FanOutEvent(
        subscriptions,
        deliveries,
        attempt,
        new AttemptSlots(config.DELIVERY_CONCURRENCY),
        config.DELIVERY_LEASE_MS,
        runtime.logger,
        (event) => metrics.withheld(event),
        (tenantId, id) => held.release(tenantId, id),
      );
      const deliverable = (events: Array<WebhookEvent | undefined>) =>
        events.filter((event): event is WebhookEvent => event !== undefined);
      // Every fan-out consumer alike, whichever stream it reads.
      const fanOutConsumer = (stream: string, durable: string) => ({
        jetstream: runtime.jetstream,
        manager: runtime.jetstreamManager,
        stream,
        durable,
        // Fan-out is idempotent by itself (one delivery per event id and subscription, a unique
        // key), so no per-event processed record: it would add two writes per event (ADR 0401).
        // First attempts are made inside the batch (ADR 0408): several batches at once, so one
        // stuck on a slow receiver does not hold the others; the ack wait is the first attempt's
        // lease (a dead replica's events come back after it, to be repeated with the same ids).
        concurrency: FAN_OUT_BATCHES,
        maxBatch: 4 * config.DELIVERY_CONCURRENCY,
        ackWaitMs: config.DELIVERY_LEASE_MS,
        logger: runtime.logger,
      });
      const domainConsumer = await startBatchConsumer({
        ...fanOutConsumer(DOMAIN_STREAM.name, 'outbound-delivery-fan-out'),
        event: anyDomainEvent,
        handle: async (events) =>
          void (await fanOut.executeAll(deliverable(events.map(webhookEventOfDomainEvent)))),
      });
      runtime.onStop(() => domainConsumer.stop());
      // The webhook events whose one fact is a record of another stream (ADR 0416).
      for (const source of RECORD_WEBHOOK_EVENTS) {
        const consumer = await startBatchConsumer({
          ...fanOutConsumer(source.stream.name, source.durable),
          event: source.event,
          // Created from the next event on: the record events already in the stream were
          // delivered from their DOMAIN twins before ADR 0416, and would be sent a second time.
          deliverPolicy: 'new',
          handle: async (events) => {
            const mapped = events.map((event) => {
              const webhook = webhookEventOfRecord(source, event);
              if (!webhook)
                runtime.logger.warn(
                  { event_id: event.id, subject: event.subject },
                  'record event without its record; nothing delivered',
                );
              return webhook;
            });
            await fanOut.executeAll(deliverable(mapped));
          },
        });
        runtime.onStop(() => consumer.stop());
      }
      // Owners' grants follow identity (ADR 0409). Idempotent by itself: a change is applied only
      // over grants older than it.
      const grantsConsumer = await startConsumer({
        jetstream: runtime.jetstream,
        manager: runtime.jetstreamManager,
        stream: IDENTITY_STREAM.name,
        durable: 'outbound-delivery-owner-grants',
        event: userChanged,
        handle: async (event) => {
          if (!event.payload.has_grants) return;
          await subscriptions.updateOwnerGrants(event.tenantId, event.payload.user_id, {
            is_owner: event.payload.is_owner,
            permissions: event.payload.permissions,
            as_of: event.occurredAt,
          });
        },
        logger: runtime.logger,
      });
      runtime.onStop(() => grantsConsumer.stop());
      runtime.startOutboxRelay();
    },
  );
}
