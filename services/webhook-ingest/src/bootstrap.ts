import { ACTIVITY_STREAM } from '@inventory/events';
import { applyRetention, dropRetiredIndexes, ServiceRuntime } from '@inventory/platform';
import { createParcelTrackingClient } from './clients/parcel-tracking.js';
import { readConfig } from './config.js';
import { webhookIngestService } from './grpc/webhook-ingest-service.js';
import { WebhookMetrics } from './metrics/webhook-metrics.js';
import { ReprocessJobRepository } from './store/reprocess-job-repository.js';
import { WebhookEventRepository } from './store/webhook-event-repository.js';
import { WebhookReprocessRepository } from './store/webhook-reprocess-repository.js';
import { WebhookTokenRepository } from './store/webhook-token-repository.js';
import { GetWebhookSummary } from './use-cases/get-webhook-summary.js';
import { IngestWebhook } from './use-cases/ingest-webhook.js';
import { ListWebhookEvents } from './use-cases/list-webhook-events.js';
import { ProcessWebhookEvent } from './use-cases/process-webhook-event.js';
import { RegisterToken } from './use-cases/register-token.js';
import { GetReprocessJob, StartReprocessJob } from './use-cases/reprocess-jobs.js';
import { ReprocessWebhookEvent } from './use-cases/reprocess-webhook-event.js';
import { ResolveToken } from './use-cases/resolve-token.js';
import { UnregisterToken } from './use-cases/unregister-token.js';
import { Backlog } from './workers/backlog.js';
import { finishQueue } from './workers/finish-queue.js';
import { ReprocessJobs } from './workers/reprocess-jobs.js';
import { WebhookProcessor } from './workers/webhook-processor.js';

export const SERVICE_NAME = 'webhook-ingest';

export { MAX_BODY_BYTES, MAX_JSON_DEPTH } from './domain/payload.js';

/**
 * Wires the service and starts serving; the returned runtime's `stop()` drains and closes. A
 * failed wiring step stops what was started (ServiceRuntime.run).
 */
export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceRuntime> {
  const config = readConfig(env);
  return ServiceRuntime.run(
    { name: SERVICE_NAME, config, dbName: config.MONGO_DB, streams: [ACTIVITY_STREAM] },
    async (runtime) => {
      const parcelTracking = createParcelTrackingClient(
        config.PARCEL_TRACKING_GRPC_ADDRESS,
        config.GRPC_CLIENT_DEADLINE_MS,
      );
      // Registered first, so it closes last: after the processor and the gRPC server stopped.
      runtime.onStop(async () => parcelTracking.close());
      const tokens = new WebhookTokenRepository(runtime.mongo);
      const webhookEvents = new WebhookEventRepository(runtime.mongo);
      await dropRetiredIndexes(runtime.logger, webhookEvents);
      await applyRetention(
        runtime.logger,
        webhookEvents.retention(config.WEBHOOK_EVENT_RETENTION_DAYS),
      );
      const resolveToken = new ResolveToken(tokens);
      const metrics = new WebhookMetrics(runtime.metrics.registry);
      const finishes = finishQueue(webhookEvents, runtime.outbox);
      // Registered before the processor's stop, so it runs after it: the last results are written.
      runtime.onStop(() => finishes.stop());
      const processor = new WebhookProcessor({
        inbox: webhookEvents,
        process: metrics.countProcessing(
          new ProcessWebhookEvent({
            inbox: webhookEvents,
            parcelTracking,
            finishes,
            logger: runtime.logger,
            policy: {
              maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
              retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
            },
          }),
        ),
        logger: runtime.logger,
        leaseMs: config.WEBHOOK_LEASE_MS,
        pollMs: config.WEBHOOK_POLL_INTERVAL_MS,
        // Idle, a replica looks ten times less often; local ingests wake it at once (ADR 0715).
        idlePollMs: config.WEBHOOK_POLL_INTERVAL_MS * 10,
        concurrency: config.WEBHOOK_PROCESSING_CONCURRENCY,
      });
      const backlog = new Backlog({
        inbox: webhookEvents,
        logger: runtime.logger,
        limit: config.WEBHOOK_BACKLOG_LIMIT,
        checkMs: config.WEBHOOK_BACKLOG_CHECK_MS,
      });
      const reprocessRows = new WebhookReprocessRepository(runtime.mongo);
      const reprocessJobs = new ReprocessJobRepository(runtime.mongo);
      const reprocessRunner = new ReprocessJobs({
        jobs: reprocessJobs,
        rows: reprocessRows,
        wake: () => processor.wake(),
        logger: runtime.logger,
        leaseMs: config.WEBHOOK_REPROCESS_LEASE_MS,
        pollMs: config.WEBHOOK_REPROCESS_POLL_MS,
      });
      metrics.watchBacklog(backlog);
      await backlog.start();
      runtime.onStop(() => backlog.stop());
      await runtime.serve([
        webhookIngestService(
          {
            registerToken: new RegisterToken(tokens),
            unregisterToken: new UnregisterToken(tokens),
            resolveToken,
            ingestWebhook: metrics.countIngest(
              new IngestWebhook({
                resolveToken,
                inbox: webhookEvents,
                parcelTracking,
                outbox: runtime.outbox,
                processor,
                backlog,
              }),
            ),
            getWebhookSummary: new GetWebhookSummary(webhookEvents),
            listWebhookEvents: new ListWebhookEvents(webhookEvents),
            reprocessWebhookEvent: new ReprocessWebhookEvent({
              rows: reprocessRows,
              wake: () => processor.wake(),
            }),
            startReprocessJob: new StartReprocessJob({
              jobs: reprocessJobs,
              rows: reprocessRows,
              kick: () => reprocessRunner.kick(),
            }),
            getReprocessJob: new GetReprocessJob({ jobs: reprocessJobs, rows: reprocessRows }),
          },
          runtime.logger,
        ),
      ]);
      runtime.startOutboxRelay();
      processor.start();
      runtime.onStop(() => processor.stop());
      await reprocessRunner.start();
      // Stops before the processor (stops run in reverse): a job's lease is given up at once.
      runtime.onStop(() => reprocessRunner.stop());
    },
  );
}
