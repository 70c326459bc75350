import type { TrackingUpdate } from '../src/domain/payload.js';
import type { NewWebhookEvent } from '../src/store/webhook-event.js';

/** A provider webhook as the ingest stores it: a `TRACKING_UPDATED` for `number`, unsigned. */
export const receivedEvent = (
  tenantId: string,
  number: string,
  instanceId = 1,
): NewWebhookEvent => ({
  tenant_id: tenantId,
  integration_instance_id: instanceId,
  provider: 'parcel-tracking',
  received_at: new Date(),
  event_type: 'TRACKING_UPDATED',
  tracking_number: number,
  payload: null,
  raw_body: '{}',
  content_type: 'application/json',
  signature: null,
  signature_state: 'absent',
});

/** What that webhook says: `number` is in transit, nothing more. */
export const inTransit = (number: string): TrackingUpdate => ({
  event_type: 'TRACKING_UPDATED',
  tracking_number: number,
  carrier_code: null,
  provider_status: 'InTransit',
  provider_sub_status: null,
  latest_event_at: null,
  latest_event_description: null,
  latest_event_location: null,
  estimated_delivery_at: null,
  picked_up_at: null,
});
