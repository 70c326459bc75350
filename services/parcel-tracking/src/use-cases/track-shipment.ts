import { isAutoTracked } from '../domain/channel-scope.js';
import type { InstanceDocument } from '../store/instance.js';
import type { ShipmentDocument } from '../store/shipment.js';
import { normalizeNumber } from '../store/tracking-queries.js';
import type { TrackingRepository } from '../store/tracking-repository.js';

export type TrackOutcome = 'created' | 'kept' | 'untracked' | 'stopped';

/**
 * Brings an instance's rows in line with what intake knows of one shipment:
 * a removed number or a replaced one stops the old row; a number the settings
 * auto-track gets a pending row (at most one active row per number, by a
 * unique index, so replicas and redeliveries cannot make a second). A shipment
 * the settings do not track stays remembered in `shipments` only.
 */
export async function trackShipment(
  trackings: TrackingRepository,
  instance: InstanceDocument,
  shipment: ShipmentDocument,
  now: Date,
): Promise<TrackOutcome> {
  const tenantId = shipment.tenant_id;
  const active = await trackings.activeForTrackable(
    tenantId,
    instance.id,
    shipment.trackable_type,
    shipment.trackable_id,
  );
  const number = shipment.tracking_number ? normalizeNumber(shipment.tracking_number) : null;
  const outdated = active.filter((row) => row.tracking_number !== number);
  await trackings.stop(
    tenantId,
    outdated.map((row) => row.id),
    now,
  );
  if (!number) return outdated.length > 0 ? 'stopped' : 'untracked';
  if (active.some((row) => row.tracking_number === number)) return 'kept';
  if (!isAutoTracked(instance, shipment)) return outdated.length > 0 ? 'stopped' : 'untracked';
  const created = await trackings.insertActive(
    {
      tenant_id: tenantId,
      integration_instance_id: instance.id,
      trackable_type: shipment.trackable_type,
      trackable_id: shipment.trackable_id,
      trackable_label: shipment.trackable_label,
      trackable_url: shipment.trackable_url,
      tracking_number: number,
      carrier_code: shipment.carrier_code,
      sales_channel_id: shipment.sales_channel_id,
      sub_channel_id: shipment.sub_channel_id,
      delivery_status: 'pending',
    },
    now,
  );
  return created ? 'created' : 'kept';
}
