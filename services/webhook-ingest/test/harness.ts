import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { AckPolicy, DeliverPolicy } from 'nats';
import { ActivityRecorded } from '@inventory/contracts/events/v1/activity.js';
import { WebhookIngestServiceClient } from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import { eventually, startTestInfra } from '@inventory/local-infra';
import {
  createGrpcClient,
  decodeEnvelope,
  runWithContext,
  type GrpcClientHandle,
  type ServiceRuntime,
} from '@inventory/platform';
import type { bootstrap } from '../src/bootstrap.js';
import { type WebhookEventDocument } from '../src/store/webhook-event.js';
import { FakeParcelTracking } from './fake-parcel-tracking.js';

export const PROVIDER = 'parcel-tracking';
export const newToken = () => `wh_${randomBytes(32).toString('base64url')}`;
export const as = <T>(tenantId: string | undefined, fn: () => Promise<T>) =>
  runWithContext({ requestId: `test-${Math.random()}`, tenantId }, fn);

/** The shared poll (a generous cap; events cross NATS and background jobs asynchronously). */
export { eventually };

/** The infrastructure and the fake parcel-tracking; each suite starts the service its way. */
export async function startHarness(extraEnv: NodeJS.ProcessEnv = {}) {
  const infra = await startTestInfra({ redis: false });
  const fake = await new FakeParcelTracking().start();
  const env: NodeJS.ProcessEnv = {
    MONGO_URL: infra.mongoUrl,
    MONGO_DB: infra.dbName('webhook_ingest'),
    NATS_URL: infra.natsUrl,
    LOG_LEVEL: 'silent',
    PARCEL_TRACKING_GRPC_ADDRESS: fake.address,
    GRPC_CLIENT_DEADLINE_MS: '2000',
    WEBHOOK_POLL_INTERVAL_MS: '50',
    WEBHOOK_RETRY_BASE_MS: '20',
    WEBHOOK_MAX_ATTEMPTS: '3',
    ...extraEnv,
  };
  return { infra, fake, env };
}

export type Service = Awaited<ReturnType<typeof bootstrap>>;

export function clientOf(address: string, deadlineMs = 10_000) {
  return createGrpcClient(WebhookIngestServiceClient, address, { deadlineMs });
}

export async function connect(
  client: GrpcClientHandle<WebhookIngestServiceClient>,
  fake: FakeParcelTracking,
  tenantId: string,
  instanceId: number,
  apiKey: string,
): Promise<string> {
  const token = newToken();
  await as(tenantId, () =>
    client.call.registerToken({ token, provider: PROVIDER, integration_instance_id: instanceId }),
  );
  fake.apiKeys.set(`${tenantId}:${instanceId}`, apiKey);
  return token;
}

export function ingest(
  client: GrpcClientHandle<WebhookIngestServiceClient>,
  token: string,
  body: string | Buffer,
  sign?: string,
) {
  return client.call.ingestWebhook({
    token,
    provider: PROVIDER,
    raw_body: Buffer.isBuffer(body) ? body : Buffer.from(body),
    content_type: 'application/json',
    signature: sign,
  });
}

/**
 * The service's webhook log, read by its collection's name: what a test checks is stored, without
 * reaching into the service's stores.
 */
export function webhookEvents(mongo: Connection) {
  return mongo.collection<WebhookEventDocument>('webhook_events');
}

/** The registered tokens, read by their collection's name. */
export function webhookTokens(mongo: Connection) {
  return mongo.collection('webhook_tokens');
}

/** The row once it has its result. */
export function finished(
  service: Pick<ServiceRuntime, 'mongo'>,
  id: number,
): Promise<WebhookEventDocument> {
  return eventually(async () => {
    const row = await webhookEvents(service.mongo).findOne({ id });
    if (row?.state !== 'done') throw new Error(`webhook event ${id} is not finished`);
    return row;
  });
}

/** Every activity event published so far for a tenant, read from the ACTIVITY stream. */
export async function activityEvents(
  runtime: Pick<ServiceRuntime, 'jetstream' | 'jetstreamManager'>,
  tenantId: string,
) {
  const { jetstream, jetstreamManager } = runtime;
  const name = `test_${Math.random().toString(36).slice(2)}`;
  await jetstreamManager.consumers.add('ACTIVITY', {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.All,
    inactive_threshold: 5e9,
  });
  const consumer = await jetstream.consumers.get('ACTIVITY', name);
  const info = await jetstreamManager.streams.info('ACTIVITY');
  const out: Array<ActivityRecorded & { id: string; properties: Record<string, unknown> }> = [];
  if (info.state.messages === 0) return out;
  const batch = await consumer.fetch({ max_messages: info.state.messages, expires: 2_000 });
  for await (const message of batch) {
    const envelope = decodeEnvelope(message.data);
    if (envelope.tenant_id === tenantId) {
      const payload = ActivityRecorded.decode(envelope.payload);
      out.push({
        ...payload,
        id: envelope.id,
        properties: JSON.parse(payload.properties_json) as Record<string, unknown>,
      });
    }
    if (message.info.pending === 0) break;
  }
  return out;
}
