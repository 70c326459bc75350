import {
  ParcelTrackingServiceClient,
  type ApplyTrackingUpdateRequest,
  type ApplyTrackingUpdateResponse,
  type BatchItemError,
  type VerifyWebhookSignatureRequest,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import {
  AppError,
  createGrpcClient,
  GroupCommitQueue,
  newRequestId,
  runWithContext,
} from '@inventory/platform';
import type { TrackingUpdate } from '../domain/payload.js';

/**
 * parcel-tracking as this service uses it: it holds the instance's API key (so
 * it checks signatures) and the tracking rows (so it applies updates). Every
 * call carries the webhook's tenant as `x-tenant-id` metadata: an inbound call
 * has no tenant credential, the token resolved it.
 */
export interface ParcelTracking {
  verifySignature(
    tenantId: string,
    instanceId: number,
    rawBody: Uint8Array,
    signature: string,
  ): Promise<boolean>;
  applyUpdate(
    tenantId: string,
    instanceId: number,
    webhookEventId: number,
    update: TrackingUpdate,
  ): Promise<ApplyTrackingUpdateResponse>;
  close(): Promise<void>;
}

const BATCHED_BODY_MAX_BYTES = 64 * 1024;

const asDate = (iso: string | null) => (iso === null ? undefined : new Date(iso));
const present = <T>(value: T | null) => (value === null ? undefined : value);

/** One item's refusal in a batch answer, thrown to its caller as the single call would have. */
const refusal = (error: BatchItemError) => new AppError(error.code, error.reason, error.message);

/**
 * Calls of one tenant gathered by group commit (ADR 0226): the first goes at once, those that
 * arrive while it is in flight go together in the next batch call; each caller gets its own
 * answer, or its own refusal. A call that fails as a whole fails each of its items.
 */
class TenantBatches<T, R> {
  private readonly queues = new Map<string, GroupCommitQueue<T, R | AppError>>();

  constructor(
    private readonly call: (tenantId: string, batch: T[]) => Promise<Array<R | AppError>>,
    private readonly maxBatch: number,
  ) {}

  async add(tenantId: string, item: T): Promise<R> {
    let queue = this.queues.get(tenantId);
    if (!queue) {
      queue = new GroupCommitQueue((batch: T[]) => this.call(tenantId, batch), this.maxBatch);
      this.queues.set(tenantId, queue);
    }
    // The queue rejects an item whose answer is an Error: its refusal.
    return (await queue.add(item)) as R;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.stop()));
  }
}

export function createParcelTrackingClient(address: string, deadlineMs: number): ParcelTracking {
  // With bodies of at most BATCHED_BODY_MAX_BYTES, a batch stays below 4 MiB.
  const maxBatch = 64;
  // Two clients, so two breakers (ADR 0224): background applies timing out under load must not
  // open the breaker that signature checks go through, or pushes get 503s for the job's sake.
  const service = ParcelTrackingServiceClient.serviceName;
  const checks = createGrpcClient(ParcelTrackingServiceClient, address, {
    deadlineMs,
    breakerName: `${service}/signature-checks`,
  });
  const applies = createGrpcClient(ParcelTrackingServiceClient, address, {
    deadlineMs,
    breakerName: `${service}/applies`,
  });
  // A batch serves several callers: it gets its own request id, and the tenant they share.
  const asTenant = <T>(tenantId: string, call: () => Promise<T>) =>
    runWithContext({ requestId: newRequestId(), tenantId }, call);
  const verifications = new TenantBatches<VerifyWebhookSignatureRequest, boolean>(
    async (tenantId, batch) => {
      const { results } = await asTenant(tenantId, () =>
        checks.call.verifyWebhookSignatures({ checks: batch }),
      );
      return results.map((result) => (result.error ? refusal(result.error) : result.valid));
    },
    maxBatch,
  );
  const updates = new TenantBatches<ApplyTrackingUpdateRequest, ApplyTrackingUpdateResponse>(
    async (tenantId, batch) => {
      const { results } = await asTenant(tenantId, () =>
        applies.call.applyTrackingUpdates({ updates: batch }),
      );
      return results.map((result) =>
        result.error
          ? refusal(result.error)
          : (result.answer ?? refusal({ code: 13, reason: 'internal', message: 'No answer.' })),
      );
    },
    maxBatch,
  );
  return {
    async verifySignature(tenantId, instanceId, rawBody, signature) {
      const check = {
        integration_instance_id: instanceId,
        raw_body: Buffer.from(rawBody),
        signature,
      };
      // A large body is checked alone, so a batch stays far below the 8 MiB a gRPC message may
      // carry (64 checks of at most 64 KiB each; bodies reach the gateway's 1 MiB).
      if (check.raw_body.length <= BATCHED_BODY_MAX_BYTES)
        return verifications.add(tenantId, check);
      const answer = await asTenant(tenantId, () => checks.call.verifyWebhookSignature(check));
      return answer.valid;
    },
    applyUpdate(tenantId, instanceId, webhookEventId, update) {
      return updates.add(tenantId, {
        integration_instance_id: instanceId,
        webhook_event_id: webhookEventId,
        update: {
          event_type: update.event_type,
          tracking_number: update.tracking_number,
          carrier_code: present(update.carrier_code),
          provider_status: present(update.provider_status),
          provider_sub_status: present(update.provider_sub_status),
          latest_event_at: asDate(update.latest_event_at),
          latest_event_description: present(update.latest_event_description),
          latest_event_location: present(update.latest_event_location),
          estimated_delivery_at: asDate(update.estimated_delivery_at),
          picked_up_at: asDate(update.picked_up_at),
          checkpoints: (update.checkpoints ?? []).map((checkpoint) => ({
            ...checkpoint,
            occurred_at: asDate(checkpoint.occurred_at),
          })),
        },
      });
    },
    async close() {
      await Promise.all([verifications.stop(), updates.stop()]);
      checks.close();
      applies.close();
    },
  };
}
