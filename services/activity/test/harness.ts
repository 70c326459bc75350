import {
  ActivityServiceClient,
  type Activity,
  type ListActivitiesRequest,
  type ListActivitiesResponse,
  type ListAlertsRequest,
  type ListAlertsResponse,
} from '@inventory/contracts/activity/v1/activity.js';
import { ACTIVITY_STREAM } from '@inventory/events';
import {
  consumerDrained,
  eventually,
  startTestInfra,
  type TestInfra,
} from '@inventory/local-infra';
import {
  createGrpcClient,
  runWithContext,
  ServiceRuntime,
  type GrpcClientHandle,
} from '@inventory/platform';
import { expect } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { ACTIVITY_RECORDER_DURABLE } from '../src/events/activity-recorded-consumer.js';

/**
 * The activity service on real NATS and MongoDB, a gRPC client to it, and a
 * stand-in producer service whose outbox relay publishes `activity.recorded`
 * exactly as parcel-tracking or webhook-ingest would.
 */
/** A user holding alerts:view: sees the tenant's inbox (and their own alerts, user 1's). */
export const INBOX_READER = { user_id: 1, tenant_inbox: true };

export interface ActivityHarness {
  infra: TestInfra;
  service: ServiceRuntime;
  producer: ServiceRuntime;
  client: GrpcClientHandle<ActivityServiceClient>;
  /** Calls as the given tenant (x-tenant-id metadata); undefined sends none. */
  asTenant<T>(
    tenantId: string | undefined,
    call: (client: GrpcClientHandle<ActivityServiceClient>['call']) => Promise<T>,
  ): Promise<T>;
  list(tenantId: string, request?: Partial<ListActivitiesRequest>): Promise<ListActivitiesResponse>;
  listAlerts(tenantId: string, request?: Partial<ListAlertsRequest>): Promise<ListAlertsResponse>;
  /** Polls until the tenant's alert list satisfies `done` (events are stored asynchronously). */
  waitForAlerts(
    tenantId: string,
    done: (response: ListAlertsResponse) => boolean,
  ): Promise<ListAlertsResponse>;
  /** Polls until the tenant has `count` rows in total (events are stored asynchronously). */
  waitForTotal(tenantId: string, count: number): Promise<Activity[]>;
  /** Resolves once the activity consumer has handled (and acked) everything published so far. */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

export async function startActivityHarness(): Promise<ActivityHarness> {
  const infra = await startTestInfra({ redis: false });
  const env = { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, LOG_LEVEL: 'silent' };
  const service = await bootstrap({ ...env, MONGO_DB: infra.dbName('activity') });
  const producer = await ServiceRuntime.start({
    name: 'activity-test-producer',
    dbName: infra.dbName('producer'),
    streams: [ACTIVITY_STREAM],
    config: {
      ...env,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 0,
      METRICS_PORT: 0,
      SHUTDOWN_TIMEOUT_MS: 5_000,
    },
  });
  producer.startOutboxRelay();
  const client = createGrpcClient(ActivityServiceClient, service.grpc!.address, {
    deadlineMs: 5_000,
  });

  const asTenant: ActivityHarness['asTenant'] = (tenantId, call) =>
    runWithContext(
      {
        requestId: `test-${Math.random().toString(36).slice(2)}`,
        ...(tenantId ? { tenantId } : {}),
      },
      () => call(client.call),
    );
  const list: ActivityHarness['list'] = (tenantId, request = {}) =>
    asTenant(tenantId, (call) =>
      call.listActivities({
        event_types: [],
        causer_ids: [],
        search: '',
        tracking_number: '',
        sort: [],
        history_instance_ids: [],
        ...request,
      }),
    );

  const listAlerts: ActivityHarness['listAlerts'] = (tenantId, request = {}) =>
    asTenant(tenantId, (call) =>
      call.listAlerts({
        unread_only: false,
        page: { page: 1, per_page: 100 },
        reader: INBOX_READER,
        ...request,
      }),
    );

  return {
    infra,
    service,
    producer,
    client,
    asTenant,
    list,
    listAlerts,
    waitForAlerts: (tenantId, done) =>
      eventually(async () => {
        const response = await listAlerts(tenantId);
        if (!done(response)) throw new Error(`the alerts are ${JSON.stringify(response)}`);
        return response;
      }, `the alerts of ${tenantId}`),
    waitForTotal: (tenantId, count) =>
      eventually(async () => {
        const response = await list(tenantId, { page: { page: 1, per_page: 1000 } });
        expect(response.page_info!.total).toBeGreaterThanOrEqual(count);
        return response.activities;
      }, `${count} rows of ${tenantId}`),
    drained: () =>
      consumerDrained(service.jetstreamManager, ACTIVITY_STREAM.name, ACTIVITY_RECORDER_DURABLE),
    async stop() {
      client.close();
      await producer.stop();
      await service.stop();
      await infra.stop();
    },
  };
}
