import type {
  ShipmentTrackingAssigned,
  ShipmentTrackingChanged,
  ShipmentTrackingRemoved,
} from '@inventory/events';
import type { DomainEvent } from '@inventory/platform';
import { boundedLabel, isPlausibleNumber, relativeUrl } from '../domain/shipment-input.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { ShipmentChange } from '../store/shipment.js';
import type { ShipmentRepository } from '../store/shipment-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import { trackShipment, type TrackOutcome } from './track-shipment.js';

type IntakeEvent =
  | { kind: 'assigned'; event: DomainEvent<ShipmentTrackingAssigned> }
  | { kind: 'changed'; event: DomainEvent<ShipmentTrackingChanged> }
  | { kind: 'removed'; event: DomainEvent<ShipmentTrackingRemoved> };

function changeOf(input: IntakeEvent): ShipmentChange {
  if (input.kind === 'removed') return { tracking_number: null };
  const payload = input.event.payload;
  const number = payload.tracking_number.trim();
  const common: ShipmentChange = {
    // An implausible number (too long, odd characters) is treated as no number at all.
    tracking_number: number === '' || !isPlausibleNumber(number) ? null : number,
    carrier_code: payload.carrier_code ?? null,
  };
  if (input.kind === 'changed') return common;
  const assigned = input.event.payload;
  return {
    ...common,
    trackable_label: boundedLabel(assigned.trackable_label),
    trackable_url: relativeUrl(assigned.trackable_url),
    sales_channel_id: assigned.sales_channel_id ?? null,
    sub_channel_id: assigned.sub_channel_id ?? null,
  };
}

/**
 * The consumers of shipment.tracking_assigned / _changed / _removed. The
 * shipment is remembered first (dropped when older than what is held, so an
 * out-of-order event never resurrects a removed number), then the rows are
 * brought in line with it; replaying any event is harmless.
 */
export class IntakeShipment {
  constructor(
    private readonly instances: InstanceRepository,
    private readonly shipments: ShipmentRepository,
    private readonly trackings: TrackingRepository,
  ) {}

  async execute(input: IntakeEvent, now = new Date()): Promise<TrackOutcome> {
    const { tenantId, occurredAt, payload } = input.event;
    const key = { trackable_type: payload.trackable_type, trackable_id: payload.trackable_id };
    if (!key.trackable_type || !Number.isSafeInteger(key.trackable_id)) return 'untracked';
    const shipment = await this.shipments.applyIfNewer(tenantId, key, changeOf(input), occurredAt);
    const instance = await this.instances.findForTenant(tenantId);
    if (!shipment || !instance) return 'untracked';
    return trackShipment(this.trackings, instance, shipment, now);
  }
}
