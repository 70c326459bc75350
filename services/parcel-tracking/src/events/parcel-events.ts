import { defineEvent, type StreamSpec } from '@inventory/platform';
import {
  ParcelBackfillRequested,
  ParcelInstanceDisconnected,
} from '@inventory/contracts/events/v1/parcel_tracking.js';

/** The service's own stream: events it raises for its own background consumers. */
export const PARCEL_STREAM: StreamSpec = { name: 'PARCEL', subjects: ['parcel.>'] };

/** A disconnect: the instance's trackings still to stop at the provider (by stop job). */
export const instanceDisconnected = defineEvent(
  'parcel.instance.disconnected',
  ParcelInstanceDisconnected,
);

export const backfillRequested = defineEvent(
  'parcel.instance.backfill_requested',
  ParcelBackfillRequested,
);

/** The outbox entry that asks for a backfill (on connect, or when the settings widen). */
export const backfillRequest = (tenantId: string, instanceId: number, reason: string) => ({
  type: backfillRequested,
  event: { tenantId, payload: { integration_instance_id: instanceId, reason } },
});
