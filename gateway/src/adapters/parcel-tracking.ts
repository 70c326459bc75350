import {
  ParcelTrackingServiceClient,
  type CreateInstanceRequest,
  type CreateInstanceResponse,
  type GetInstanceResponse,
  type Instance,
  type ListTrackingsRequest,
  type ListTrackingsResponse,
  type GetTrackingResponse,
  type ListTrackableChannelsResponse,
  type TestApiKeyRequest,
  type TestApiKeyResponse,
  type UpdateInstanceRequest,
  type UpdateInstanceResponse,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { createGrpcClient, currentContext, type GrpcClientHandle } from '@inventory/platform';
import { asHttp } from '../http/grpc-to-http.js';
import { FAIL_FAST_ON_A_STOPPED_SERVICE } from './downstream.js';

/** The gateway's one door to parcel-tracking. Calls carry the request context (tenant, user) as metadata. */
export interface ParcelTrackingAdapter {
  testApiKey(request: TestApiKeyRequest): Promise<TestApiKeyResponse>;
  createInstance(request: CreateInstanceRequest): Promise<CreateInstanceResponse>;
  getInstance(id: number): Promise<GetInstanceResponse>;
  /** The caller's tenant's instance, if connected: 0 or 1 (the singleton). */
  listInstances(): Promise<Instance[]>;
  updateInstance(request: UpdateInstanceRequest): Promise<UpdateInstanceResponse>;
  deleteInstance(id: number): Promise<void>;
  listTrackableChannels(id: number): Promise<ListTrackableChannelsResponse>;
  /**
   * Resolves when the caller's tenant has the instance, with the tenant's disconnected instances
   * whose rows are its history (ADR 0215); throws the 404 HttpError otherwise.
   */
  checkInstance(id: number): Promise<{ historyIds: number[] }>;
  listTrackings(request: ListTrackingsRequest): Promise<ListTrackingsResponse>;
  /**
   * One row of the instance (or its history) with its kept checkpoints, newest first; the 404
   * HttpError when unknown.
   */
  getTracking(instanceId: number, id: number): Promise<GetTrackingResponse>;
  close(): void;
  readonly handle: GrpcClientHandle<ParcelTrackingServiceClient>;
}

/**
 * Deadlines by what a call waits for (issue #18 item 6, ADR 0710): the calls that must reach the
 * provider (test, create, a PATCH that may rotate the key) wait for its pacing and timeout; the
 * dashboard GET reads the live quota but answers without it when the provider is slow (ADR 0201),
 * so it needs the provider timeout plus a margin; every other call is local to parcel-tracking
 * and gets the gateway's default.
 */
const PROVIDER_CALL_DEADLINE_MS = 15_000;
const DASHBOARD_DEADLINE_MS = 8_000;

export interface ParcelTrackingAdapterOptions {
  /** The gateway's GRPC_DEADLINE_MS: the deadline of calls that stay inside parcel-tracking. */
  deadlineMs?: number;
  providerDeadlineMs?: number;
  dashboardDeadlineMs?: number;
}

/**
 * One breaker per tenant (a bulkhead, issue #18 item 3): one tenant's slow or failing calls (its
 * provider key paced or rejected) open only its own breaker, never another tenant's. Keepalive
 * pings fail the in-flight calls of a frozen parcel-tracking within seconds (item 6).
 */
export function createParcelTrackingAdapter(
  address: string,
  options: ParcelTrackingAdapterOptions = {},
): ParcelTrackingAdapter {
  const local = { deadlineMs: options.deadlineMs ?? 5_000 };
  const provider = { deadlineMs: options.providerDeadlineMs ?? PROVIDER_CALL_DEADLINE_MS };
  const dashboard = { deadlineMs: options.dashboardDeadlineMs ?? DASHBOARD_DEADLINE_MS };
  const handle = createGrpcClient(ParcelTrackingServiceClient, address, {
    deadlineMs: local.deadlineMs,
    // A tenant's open breaker tries again after 2 s, so recovery follows the service closely.
    breaker: { partitionBy: () => currentContext()?.tenantId, resetTimeoutMs: 2_000 },
    ...FAIL_FAST_ON_A_STOPPED_SERVICE,
  });
  return {
    handle,
    testApiKey: (request) => asHttp(() => handle.call.testApiKey(request, provider)),
    createInstance: (request) => asHttp(() => handle.call.createInstance(request, provider)),
    getInstance: (id) => asHttp(() => handle.call.getInstance({ id }, dashboard)),
    listInstances: () => asHttp(async () => (await handle.call.listInstances({}, local)).instances),
    updateInstance: (request) => asHttp(() => handle.call.updateInstance(request, provider)),
    deleteInstance: (id) =>
      asHttp(async () => void (await handle.call.deleteInstance({ id }, local))),
    listTrackableChannels: (id) => asHttp(() => handle.call.listTrackableChannels({ id }, local)),
    checkInstance: (id) =>
      asHttp(async () => ({
        historyIds: (await handle.call.checkInstance({ id }, local)).history_instance_ids,
      })),
    listTrackings: (request) => asHttp(() => handle.call.listTrackings(request, local)),
    getTracking: (instanceId, id) =>
      asHttp(
        async () =>
          await handle.call.getTracking({ integration_instance_id: instanceId, id }, local),
      ),
    close: () => handle.close(),
  };
}
