import {
  OutboundDeliveryServiceClient,
  type CreateSubscriptionRequest,
  type CreateSubscriptionResponse,
  type GetSubscriptionResponse,
  type GetSubscriptionHealthResponse,
  type ListDeliveriesRequest,
  type ListDeliveriesResponse,
  type ListSubscriptionsResponse,
  type PauseSubscriptionResponse,
  type RecoverDeliveriesResponse,
  type GetDeliveryResponse,
  type GetRecoverJobResponse,
  type ResumeSubscriptionResponse,
  type RedeliverResponse,
  type RotateSecretResponse,
  type SendTestPingResponse,
  type UpdateSubscriptionRequest,
  type UpdateSubscriptionResponse,
} from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import { createGrpcClient, type GrpcClientHandle } from '@inventory/platform';
import { asHttp } from '../http/grpc-to-http.js';
import { FAIL_FAST_ON_A_STOPPED_SERVICE } from './downstream.js';

/** The gateway's one door to outbound-delivery. Calls carry the request context (tenant, user). */
export interface OutboundDeliveryAdapter {
  createSubscription(request: CreateSubscriptionRequest): Promise<CreateSubscriptionResponse>;
  listSubscriptions(page: number, perPage: number): Promise<ListSubscriptionsResponse>;
  getSubscription(id: number): Promise<GetSubscriptionResponse>;
  updateSubscription(request: UpdateSubscriptionRequest): Promise<UpdateSubscriptionResponse>;
  deleteSubscription(id: number): Promise<void>;
  rotateSecret(id: number): Promise<RotateSecretResponse>;
  listDeliveries(request: ListDeliveriesRequest): Promise<ListDeliveriesResponse>;
  /** One delivery with its payload and each attempt's request; 404 HttpError for anyone else's. */
  getDelivery(subscriptionId: number, deliveryId: string): Promise<GetDeliveryResponse>;
  redeliver(subscriptionId: number, deliveryId: string): Promise<RedeliverResponse>;
  sendTestPing(subscriptionId: number): Promise<SendTestPingResponse>;
  pauseSubscription(id: number): Promise<PauseSubscriptionResponse>;
  recoverDeliveries(subscriptionId: number, since: Date): Promise<RecoverDeliveriesResponse>;
  getRecoverJob(subscriptionId: number, jobId: string): Promise<GetRecoverJobResponse>;
  resumeSubscription(id: number): Promise<ResumeSubscriptionResponse>;
  getSubscriptionHealth(id: number): Promise<GetSubscriptionHealthResponse>;
  close(): void;
  readonly handle: GrpcClientHandle<OutboundDeliveryServiceClient>;
}

/**
 * Creating or re-pointing a subscription resolves the receiver's host name, so those calls
 * get a little more than the default deadline.
 */
export function createOutboundDeliveryAdapter(
  address: string,
  options: { deadlineMs?: number } = {},
): OutboundDeliveryAdapter {
  const handle = createGrpcClient(OutboundDeliveryServiceClient, address, {
    deadlineMs: Math.max(options.deadlineMs ?? 5_000, 10_000),
    ...FAIL_FAST_ON_A_STOPPED_SERVICE,
  });
  return {
    handle,
    createSubscription: (request) => asHttp(() => handle.call.createSubscription(request)),
    listSubscriptions: (page, perPage) =>
      asHttp(() => handle.call.listSubscriptions({ page, per_page: perPage })),
    getSubscription: (id) => asHttp(() => handle.call.getSubscription({ id })),
    updateSubscription: (request) => asHttp(() => handle.call.updateSubscription(request)),
    deleteSubscription: (id) =>
      asHttp(async () => void (await handle.call.deleteSubscription({ id }))),
    rotateSecret: (id) => asHttp(() => handle.call.rotateSecret({ id })),
    listDeliveries: (request) => asHttp(() => handle.call.listDeliveries(request)),
    getDelivery: (subscriptionId, deliveryId) =>
      asHttp(() =>
        handle.call.getDelivery({ subscription_id: subscriptionId, delivery_id: deliveryId }),
      ),
    redeliver: (subscriptionId, deliveryId) =>
      asHttp(() =>
        handle.call.redeliver({ subscription_id: subscriptionId, delivery_id: deliveryId }),
      ),
    sendTestPing: (subscriptionId) =>
      asHttp(() => handle.call.sendTestPing({ subscription_id: subscriptionId })),
    pauseSubscription: (id) => asHttp(() => handle.call.pauseSubscription({ id })),
    recoverDeliveries: (subscriptionId, since) =>
      asHttp(() => handle.call.recoverDeliveries({ subscription_id: subscriptionId, since })),
    getRecoverJob: (subscriptionId, jobId) =>
      asHttp(() => handle.call.getRecoverJob({ subscription_id: subscriptionId, job_id: jobId })),
    resumeSubscription: (id) => asHttp(() => handle.call.resumeSubscription({ id })),
    getSubscriptionHealth: (id) => asHttp(() => handle.call.getSubscriptionHealth({ id })),
    close: () => handle.close(),
  };
}
