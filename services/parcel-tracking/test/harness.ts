import { ActivityRecorded } from '@inventory/contracts/events/v1/activity.js';
import { ParcelTrackingServiceClient } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { eventually, startTestInfra, type TestInfra } from '@inventory/local-infra';
import {
  connectMongo,
  createGrpcClient,
  decodeEnvelope,
  describeCallError,
  runWithContext,
  SecretBox,
  type GrpcClientHandle,
  type ServiceRuntime,
} from '@inventory/platform';
import { startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import type { Connection } from 'mongoose';
import { AckPolicy, DeliverPolicy } from 'nats';
import { bootstrap } from '../src/bootstrap.js';
import { FakeWebhookIngest } from './fake-webhook-ingest.js';
import { testStores, type TestStores } from './test-stores.js';

export const GOOD_KEY = 'good_provider_key_1';
export const OTHER_KEY = 'other_provider_key_2';

/** The key the harness gives the service for API keys at rest, so a test can read them back. */
const ENCRYPTION_KEY = Buffer.alloc(32, 'parcel-tracking-test-key').toString('base64');

export interface Harness {
  infra: TestInfra;
  sim: ProviderSimHandle;
  /** webhook-ingest's gRPC contract, faked: it is not the subject here. */
  ingest: FakeWebhookIngest;
  /** The running service: only the runtime (publisher, outbox, metrics, jetstream) is reached. */
  service: ServiceRuntime;
  /** The environment the service started with (a second replica starts with it too). */
  env: NodeJS.ProcessEnv;
  client: GrpcClientHandle<ParcelTrackingServiceClient>;
  /** The test's own connection to the service's database, and repositories on it. */
  connection: Connection;
  stores: TestStores;
  /** Decrypts what the service stored (the harness chose its key). */
  secrets: SecretBox;
  /** A test-only read of what is stored, by collection name (when stored state is the point). */
  stored(collection: string): ReturnType<NonNullable<Connection['db']>['collection']>;
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
  const serviceEnv = {
    ...common,
    MONGO_DB: infra.dbName('parcel_tracking'),
    REDIS_URL: infra.redisUrl,
    PROVIDER_BASE_URL: sim.url,
    PROVIDER_RATE_PER_SECOND: '1000',
    PROVIDER_KEY_ENCRYPTION_KEY: ENCRYPTION_KEY,
    WEBHOOK_INGEST_GRPC_ADDRESS: ingest.grpc!.address,
    STOP_RETRY_DELAY_MS: '200',
    // The watch sweep runs when a test asks (AlertWatchedShipments.runOnce), or on a replica.
    SHIPMENT_WATCH_INTERVAL_MS: '0',
    ...env,
  };
  const service = await bootstrap(serviceEnv);
  const client = createGrpcClient(ParcelTrackingServiceClient, service.grpc!.address, {
    deadlineMs: 20_000,
  });
  const connection = await connectMongo(infra.mongoUrl, serviceEnv.MONGO_DB);
  return {
    infra,
    sim,
    ingest,
    service,
    env: serviceEnv,
    client,
    connection,
    stores: testStores(connection),
    secrets: new SecretBox(ENCRYPTION_KEY),
    stored: (collection) => connection.db!.collection(collection),
    async stop() {
      client.close();
      for (const stop of [
        () => connection.close(),
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

/**
 * A second replica of the service on the same databases and simulator, with a provider breaker of
 * its own: what a test does to that breaker does not reach the first replica's.
 */
export async function startReplica(harness: Harness, env: NodeJS.ProcessEnv = {}) {
  const replica = await bootstrap({ ...harness.env, TRACKING_WORKER_INTERVAL_MS: '0', ...env });
  const client = createGrpcClient(ParcelTrackingServiceClient, replica.grpc!.address, {
    deadlineMs: 20_000,
  });
  const stop = async () => {
    client.close();
    await replica.stop();
  };
  return { client, stop };
}

/**
 * A second replica whose provider breaker is open, tripped the way an outage trips it (five
 * failed calls in a row), with its reset an hour away so it stays open for the test.
 */
export async function startReplicaWithOpenBreaker(harness: Harness) {
  const { client, stop } = await startReplica(harness, { PROVIDER_BREAKER_RESET_MS: '3600000' });
  try {
    for (let call = 0; call < 5; call++) {
      harness.sim.failNext('getquota', { httpStatus: 503 });
      const failure = await failureOf(
        as('breaker-trip', () =>
          client.call.testApiKey({ input_violations: [], api_key: GOOD_KEY }),
        ),
      );
      if (failure.reason !== 'api_error') throw new Error('the tripping call did not fail');
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { client, stop };
}

/** The shared poll (a generous cap; events cross NATS and background jobs asynchronously). */
export { eventually };
