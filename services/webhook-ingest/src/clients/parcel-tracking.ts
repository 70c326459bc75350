import {
  ParcelTrackingServiceClient,
  type ApplyTrackingUpdateRequest,
  type ApplyTrackingUpdateResponse,
  type VerifyWebhookSignatureRequest,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { BatchedCalls, createGrpcClient } from '@inventory/platform';
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
    /** Which processing of the row (0 the first, one more per reprocess; ADR 0230). */
    generation?: number,
  ): Promise<ApplyTrackingUpdateResponse>;
  close(): Promise<void>;
}

const asDate = (iso: string | null) => (iso === null ? undefined : new Date(iso));
const present = <T>(value: T | null) => (value === null ? undefined : value);

export function createParcelTrackingClient(address: string, deadlineMs: number): ParcelTracking {
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
  // Calls of one tenant gathered by group commit (ADR 0226), each batch as that tenant.
  const verifications = new BatchedCalls<VerifyWebhookSignatureRequest, boolean>({
    batch: async (checksOfTenant) =>
      (await checks.call.verifyWebhookSignatures({ checks: checksOfTenant })).results.map(
        (result) => ({ answer: result.valid, error: result.error }),
      ),
    single: async (check) => (await checks.call.verifyWebhookSignature(check)).valid,
    sizeOf: (check) => check.raw_body.length,
    keyIsTenant: true,
    // The pushes of one IngestWebhooks call, the rows of one batch: one call each (ADR 0746).
    gatherTurn: true,
  });
  const updates = new BatchedCalls<ApplyTrackingUpdateRequest, ApplyTrackingUpdateResponse>({
    batch: async (updatesOfTenant) =>
      (await applies.call.applyTrackingUpdates({ updates: updatesOfTenant })).results,
    single: (update) => applies.call.applyTrackingUpdate(update),
    // The checkpoints come from the push's body (up to 1 MiB): their text is what weighs.
    sizeOf: (update) =>
      (update.update?.checkpoints ?? []).reduce(
        (bytes, checkpoint) =>
          bytes + 64 + checkpoint.description.length + checkpoint.location.length,
        0,
      ),
    keyIsTenant: true,
    // The pushes of one IngestWebhooks call, the rows of one batch: one call each (ADR 0746).
    gatherTurn: true,
  });
  return {
    verifySignature(tenantId, instanceId, rawBody, signature) {
      const check = {
        integration_instance_id: instanceId,
        raw_body: Buffer.from(rawBody),
        signature,
      };
      return verifications.call(check, tenantId);
    },
    applyUpdate(tenantId, instanceId, webhookEventId, update, generation = 0) {
      return updates.call(
        {
          integration_instance_id: instanceId,
          webhook_event_id: webhookEventId,
          // Absent for the first processing: parcel-tracking reads it as 0.
          ...(generation > 0 ? { generation } : {}),
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
        },
        tenantId,
      );
    },
    async close() {
      await Promise.all([verifications.stop(), updates.stop()]);
      checks.close();
      applies.close();
    },
  };
}
