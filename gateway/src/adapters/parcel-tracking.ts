import {
  ParcelTrackingServiceClient,
  type CreateInstanceRequest,
  type CreateInstanceResponse,
  type GetInstanceResponse,
  type ListTrackingsRequest,
  type ListTrackingsResponse,
  type ListTrackableChannelsResponse,
  type TestApiKeyRequest,
  type TestApiKeyResponse,
  type UpdateInstanceRequest,
  type UpdateInstanceResponse,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { createGrpcClient, type GrpcClientHandle } from '@inventory/platform';
import { asHttp } from '../http/grpc-to-http.js';

/** The gateway's one door to parcel-tracking. Calls carry the request context (tenant, user) as metadata. */
export interface ParcelTrackingAdapter {
  testApiKey(request: TestApiKeyRequest): Promise<TestApiKeyResponse>;
  createInstance(request: CreateInstanceRequest): Promise<CreateInstanceResponse>;
  getInstance(id: number): Promise<GetInstanceResponse>;
  updateInstance(request: UpdateInstanceRequest): Promise<UpdateInstanceResponse>;
  deleteInstance(id: number): Promise<void>;
  listTrackableChannels(id: number): Promise<ListTrackableChannelsResponse>;
  /** Resolves when the caller's tenant has the instance; throws the 404 HttpError otherwise. */
  checkInstance(id: number): Promise<void>;
  listTrackings(request: ListTrackingsRequest): Promise<ListTrackingsResponse>;
  close(): void;
  readonly handle: GrpcClientHandle<ParcelTrackingServiceClient>;
}

/**
 * Calls that reach the provider (test, create, a rotated key, the live quota)
 * wait for its pacing and timeout, so they get a longer deadline than the
 * gateway's default.
 */
export function createParcelTrackingAdapter(
  address: string,
  options: { deadlineMs?: number } = {},
): ParcelTrackingAdapter {
  const deadlineMs = Math.max(options.deadlineMs ?? 5_000, 15_000);
  const handle = createGrpcClient(ParcelTrackingServiceClient, address, { deadlineMs });
  return {
    handle,
    testApiKey: (request) => asHttp(() => handle.call.testApiKey(request)),
    createInstance: (request) => asHttp(() => handle.call.createInstance(request)),
    getInstance: (id) => asHttp(() => handle.call.getInstance({ id })),
    updateInstance: (request) => asHttp(() => handle.call.updateInstance(request)),
    deleteInstance: (id) => asHttp(async () => void (await handle.call.deleteInstance({ id }))),
    listTrackableChannels: (id) => asHttp(() => handle.call.listTrackableChannels({ id })),
    checkInstance: (id) => asHttp(async () => void (await handle.call.checkInstance({ id }))),
    listTrackings: (request) => asHttp(() => handle.call.listTrackings(request)),
    close: () => handle.close(),
  };
}
