import { ActivityRecorded } from '@inventory/contracts/events/v1/activity.js';
import { ParcelTrackingServiceClient } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { eventually, startTestInfra, type TestInfra } from '@inventory/local-infra';
import {
  createGrpcClient,
  decodeEnvelope,
  describeCallError,
  runWithContext,
  type GrpcClientHandle,
} from '@inventory/platform';
import { startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import { AckPolicy, DeliverPolicy } from 'nats';
import { bootstrap } from '../src/bootstrap.js';
import { FakeWebhookIngest } from './fake-webhook-ingest.js';

export const GOOD_KEY = 'good_provider_key_1';
export const OTHER_KEY = 'other_provider_key_2';

export interface Harness {
  infra: TestInfra;
  sim: ProviderSimHandle;
  /** webhook-ingest's gRPC contract, faked: it is not the subject here. */
  ingest: FakeWebhookIngest;
  service: Awaited<ReturnType<typeof bootstrap>>;
  client: GrpcClientHandle<ParcelTrackingServiceClient>;
  stop(): Promise<void>;
}

/**
 * Real MongoDB/NATS/Redis, parcel-tracking over a real gRPC channel; webhook-ingest is a fake of
 * its gRPC contract (not the subject here), and the provider is simulated.
 */
export async function startHarness(env: NodeJS.ProcessEnv = {}): Promise<Harness> {
  const infra = await startTestInfra();
  const sim = await startProviderSim({
    keys: [{ key: GOOD_KEY }, { key: OTHER_KEY, quotaTotal: 50 }],
    rateLimitPerSecond: 1000,
  });
  const common = { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, LOG_LEVEL: 'silent' };
  const ingest = await new FakeWebhookIngest().start();
  const service = await bootstrap({
    ...common,
    MONGO_DB: infra.dbName('parcel_tracking'),
    REDIS_URL: infra.redisUrl,
    PROVIDER_BASE_URL: sim.url,
    PROVIDER_RATE_PER_SECOND: '1000',
    WEBHOOK_INGEST_GRPC_ADDRESS: ingest.grpc!.address,
    STOP_RETRY_DELAY_MS: '200',
    ...env,
  });
  const client = createGrpcClient(ParcelTrackingServiceClient, service.grpc!.address, {
    deadlineMs: 20_000,
  });
  return {
    infra,
    sim,
    ingest,
    service,
    client,
    async stop() {
      client.close();
      for (const stop of [
        () => service.stop(),
        () => ingest.stop(),
        () => sim.stop(),
        () => infra.stop(),
      ])
        await stop().catch(() => undefined);
    },
  };
}

/** Runs a call as a tenant (and user), the way the gateway's metadata would. */
export const as = <T>(tenantId: string, fn: () => Promise<T>, userId = 'user-1') =>
  runWithContext({ requestId: `test-${Math.random()}`, tenantId, userId }, fn);

export async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return describeCallError(error);
  }
  throw new Error('expected the call to fail');
}

/** Every activity event published so far for a tenant, read straight from the ACTIVITY stream. */
export async function activityEvents(harness: Harness, tenantId: string) {
  const { jetstream, jetstreamManager } = harness.service;
  const name = `test_${Math.random().toString(36).slice(2)}`;
  await jetstreamManager.consumers.add('ACTIVITY', {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.All,
    inactive_threshold: 5e9,
  });
  const consumer = await jetstream.consumers.get('ACTIVITY', name);
  const info = await jetstreamManager.streams.info('ACTIVITY');
  const out: Array<ActivityRecorded & { tenant_id: string }> = [];
  if (info.state.messages === 0) return out;
  const batch = await consumer.fetch({ max_messages: info.state.messages, expires: 2_000 });
  for await (const message of batch) {
    const envelope = decodeEnvelope(message.data);
    if (envelope.tenant_id === tenantId)
      out.push({ ...ActivityRecorded.decode(envelope.payload), tenant_id: envelope.tenant_id });
    if (message.info.pending === 0) break;
  }
  return out;
}

/** The shared poll (a generous cap; events cross NATS and background jobs asynchronously). */
export { eventually };
