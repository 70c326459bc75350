import {
  ACTIVITY_STREAM,
  CATALOG_STREAM,
  SHIPMENTS_STREAM,
  shipmentTrackingAssigned,
  shipmentTrackingChanged,
  shipmentTrackingRemoved,
} from '@inventory/events';
import {
  applyRetention,
  connectRedis,
  dropRetiredIndexes,
  ServiceRuntime,
  SecretBox,
} from '@inventory/platform';
import { createWebhookRegistry } from './clients/webhook-registry.js';
import { readConfig } from './config.js';
import {
  salesChannelConnected,
  salesChannelDisconnected,
  salesChannelHandlers,
  salesChannelUpdated,
} from './events/sales-channel-events.js';
import { backfillRequested, instanceDisconnected, PARCEL_STREAM } from './events/parcel-events.js';
import { parcelTrackingService } from './grpc/parcel-tracking-service.js';
import { ProviderClient } from './provider/client.js';
import { providerMetrics } from './provider/provider-metrics.js';
import { QuotaReader } from './provider/quota-reader.js';
import { RedisPacer } from './provider/redis-pacer.js';
import { InstanceRepository } from './store/instance-repository.js';
import { SalesChannelRepository } from './store/sales-channel-repository.js';
import { InstanceHistoryRepository } from './store/instance-history-repository.js';
import { StopJobRepository } from './store/stop-job-repository.js';
import { TransitDaysRepository } from './store/transit-days-repository.js';
import { TrackingRepository } from './store/tracking-repository.js';
import { CheckpointRepository } from './store/checkpoint-repository.js';
import { AppliedUpdateRepository } from './store/applied-update-repository.js';
import { ShipmentRepository } from './store/shipment-repository.js';
import { ApplyTrackingUpdate } from './use-cases/apply-tracking-update.js';
import { BackfillInstance } from './use-cases/backfill-instance.js';
import { IntakeShipment } from './use-cases/intake-shipment.js';
import { ListTrackings } from './use-cases/list-trackings.js';
import { GetTracking } from './use-cases/get-tracking.js';
import { startTrackingWorkers } from './workers/tracking-workers.js';
import { CheckInstance } from './use-cases/check-instance.js';
import { CreateInstance } from './use-cases/create-instance.js';
import { DeleteInstance } from './use-cases/delete-instance.js';
import { GetInstance } from './use-cases/get-instance.js';
import { ListInstances } from './use-cases/list-instances.js';
import { ListTrackableChannels } from './use-cases/list-trackable-channels.js';
import { StopDisconnectedTrackings } from './use-cases/stop-disconnected-trackings.js';
import { TestApiKey } from './use-cases/test-api-key.js';
import { UpdateInstance } from './use-cases/update-instance.js';
import { VerifyWebhookSignature } from './use-cases/verify-webhook-signature.js';
import { VerifyWebhookSignatures } from './use-cases/verify-webhook-signatures.js';
import { ApplyTrackingUpdates } from './use-cases/apply-tracking-updates.js';
import { TrackingScopes } from './use-cases/tracking-scopes.js';
import { WebhookKeys } from './use-cases/webhook-keys.js';

export const SERVICE_NAME = 'parcel-tracking';

/**
 * Wires the service and starts serving; the returned runtime's `stop()` drains and closes. A
 * failed wiring step (Redis unreachable, a consumer that cannot bind) stops what was started.
 */
export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceRuntime> {
  const config = readConfig(env);
  return ServiceRuntime.run(
    {
      name: SERVICE_NAME,
      config,
      dbName: config.MONGO_DB,
      streams: [PARCEL_STREAM, ACTIVITY_STREAM, CATALOG_STREAM, SHIPMENTS_STREAM],
    },
    async (runtime) => {
      // Registered first, so it closes last: after gRPC has drained and the consumers stopped.
      const redis = await connectRedis(config.REDIS_URL, runtime.logger);
      runtime.onStop(async () => (redis.status === 'ready' ? redis.quit() : redis.disconnect()));
      const registry = createWebhookRegistry(
        config.WEBHOOK_INGEST_GRPC_ADDRESS,
        config.GRPC_CLIENT_DEADLINE_MS,
      );
      runtime.onStop(async () => registry.close());
      const provider = new ProviderClient({
        baseUrl: config.PROVIDER_BASE_URL,
        timeoutMs: config.PROVIDER_TIMEOUT_MS,
        pacer: new RedisPacer(redis, {
          perSecond: config.PROVIDER_RATE_PER_SECOND,
          leaseMs: config.PROVIDER_PACE_LEASE_MS ?? config.PROVIDER_TIMEOUT_MS + 1_000,
          logger: runtime.logger,
        }),
        breakerResetMs: config.PROVIDER_BREAKER_RESET_MS,
        logger: runtime.logger,
        metrics: providerMetrics(runtime.metrics.registry),
      });
      runtime.onStop(async () => provider.breakers.shutdown());
      const { outbox, logger } = runtime;
      const secrets = new SecretBox(config.PROVIDER_KEY_ENCRYPTION_KEY);
      const instances = new InstanceRepository(runtime.mongo);
      const trackings = new TrackingRepository(runtime.mongo);
      await dropRetiredIndexes(logger, trackings);
      const shipments = new ShipmentRepository(runtime.mongo);
      const stopJobs = new StopJobRepository(runtime.mongo);
      const history = new InstanceHistoryRepository(runtime.mongo);
      const transitDays = new TransitDaysRepository(runtime.mongo);
      const channels = new SalesChannelRepository(runtime.mongo);
      const quotas = new QuotaReader(provider, { ttlMs: config.QUOTA_CACHE_TTL_MS });
      const webhookKeys = new WebhookKeys(instances, secrets, {
        ttlMs: config.WEBHOOK_KEY_CACHE_TTL_MS,
      });
      const verifyWebhookSignature = new VerifyWebhookSignature(webhookKeys);
      const trackingScopes = new TrackingScopes(
        { instances, history },
        { ttlMs: config.TRACKING_SCOPE_CACHE_TTL_MS },
      );
      const appliedUpdates = new AppliedUpdateRepository(runtime.mongo);
      await dropRetiredIndexes(logger, appliedUpdates);
      const checkpoints = new CheckpointRepository(runtime.mongo);
      await applyRetention(logger, checkpoints.retention(config.CHECKPOINT_RETENTION_DAYS));

      await runtime.serve([
        parcelTrackingService(
          {
            testApiKey: new TestApiKey(provider),
            createInstance: new CreateInstance({
              instances,
              provider,
              secrets,
              registry,
              outbox,
              logger,
            }),
            getInstance: new GetInstance({
              instances,
              trackings,
              transitDays,
              quotas,
              secrets,
              registry,
              outbox,
              logger,
            }),
            listInstances: new ListInstances(instances),
            updateInstance: new UpdateInstance({
              instances,
              provider,
              secrets,
              outbox,
              webhookKeys,
              trackingScopes,
            }),
            deleteInstance: new DeleteInstance({
              instances,
              trackings,
              stopJobs,
              registry,
              outbox,
              logger,
              webhookKeys,
              history,
              transitDays,
              trackingScopes,
            }),
            listTrackableChannels: new ListTrackableChannels(instances, channels),
            checkInstance: new CheckInstance(instances, history),
            verifyWebhookSignature,
            applyTrackingUpdate: new ApplyTrackingUpdate({
              instances,
              trackings,
              checkpoints,
              appliedUpdates,
              outbox,
            }),
            verifyWebhookSignatures: new VerifyWebhookSignatures(verifyWebhookSignature),
            applyTrackingUpdates: new ApplyTrackingUpdates({
              instances,
              trackings,
              checkpoints,
              appliedUpdates,
              outbox,
            }),
            listTrackings: new ListTrackings({ scopes: trackingScopes, trackings }),
            getTracking: new GetTracking({ scopes: trackingScopes, trackings, checkpoints }),
          },
          logger,
        ),
      ]);

      const stopper = new StopDisconnectedTrackings({
        stopJobs,
        trackings,
        provider,
        secrets,
        logger,
      });
      await runtime.consume({
        stream: PARCEL_STREAM.name,
        durable: 'parcel-tracking-stop-disconnected',
        event: instanceDisconnected,
        handle: (event) => stopper.execute(event),
        retryDelayMs: config.STOP_RETRY_DELAY_MS,
      });
      const channelEvents = salesChannelHandlers(channels);
      await runtime.consume({
        stream: CATALOG_STREAM.name,
        durable: 'parcel-tracking-sales-channel-connected',
        event: salesChannelConnected,
        handle: channelEvents.connected,
      });
      await runtime.consume({
        stream: CATALOG_STREAM.name,
        durable: 'parcel-tracking-sales-channel-updated',
        event: salesChannelUpdated,
        handle: channelEvents.updated,
      });
      await runtime.consume({
        stream: CATALOG_STREAM.name,
        durable: 'parcel-tracking-sales-channel-disconnected',
        event: salesChannelDisconnected,
        handle: channelEvents.disconnected,
      });
      const intake = new IntakeShipment(instances, shipments, trackings);
      await runtime.consume({
        stream: SHIPMENTS_STREAM.name,
        durable: 'parcel-tracking-shipment-assigned',
        event: shipmentTrackingAssigned,
        handle: async (event) => void (await intake.execute({ kind: 'assigned', event })),
      });
      await runtime.consume({
        stream: SHIPMENTS_STREAM.name,
        durable: 'parcel-tracking-shipment-changed',
        event: shipmentTrackingChanged,
        handle: async (event) => void (await intake.execute({ kind: 'changed', event })),
      });
      await runtime.consume({
        stream: SHIPMENTS_STREAM.name,
        durable: 'parcel-tracking-shipment-removed',
        event: shipmentTrackingRemoved,
        handle: async (event) => void (await intake.execute({ kind: 'removed', event })),
      });
      const backfill = new BackfillInstance({ instances, shipments, trackings, outbox });
      await runtime.consume({
        stream: PARCEL_STREAM.name,
        durable: 'parcel-tracking-backfill',
        event: backfillRequested,
        handle: (event) => backfill.execute(event),
      });

      startTrackingWorkers(runtime, {
        instances,
        trackings,
        checkpoints,
        provider,
        secrets,
        config,
      });
      runtime.startOutboxRelay();
    },
  );
}
