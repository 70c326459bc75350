import { activityEntry } from '@inventory/events';
import type { DomainEvent, Outbox } from '@inventory/platform';
import type { ParcelBackfillRequested } from '@inventory/contracts/events/v1/parcel_tracking.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { ShipmentRepository } from '../store/shipment-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import { trackShipment } from './track-shipment.js';

/**
 * Tracks the remembered shipments the instance's settings now cover, between
 * activity `backfill_started` and `backfill_completed` (counts in properties).
 * Both rows' ids derive from the request's event id, so a redelivered request
 * records them once; rows already made are kept, so the rerun is harmless.
 */
export class BackfillInstance {
  constructor(
    private readonly deps: {
      instances: InstanceRepository;
      shipments: ShipmentRepository;
      trackings: TrackingRepository;
      outbox: Outbox;
    },
  ) {}

  async execute(event: DomainEvent<ParcelBackfillRequested>, now = new Date()): Promise<void> {
    const { instances, shipments, outbox } = this.deps;
    const tenantId = event.tenantId;
    const instanceId = event.payload.integration_instance_id;
    const instance = await instances.find(tenantId, instanceId);
    if (!instance) return;
    const remembered = await shipments.withNumber(tenantId);
    const base = { integration_instance_id: instanceId, reason: event.payload.reason };
    await outbox.add([
      activityEntry({
        tenantId,
        id: `backfill_started:${event.id}`,
        event: 'backfill_started',
        description: `Backfill of ${remembered.length} remembered shipments started`,
        integrationInstanceId: instanceId,
        properties: { ...base, shipments_count: remembered.length },
      }),
    ]);
    const counts = { created: 0, already_tracked: 0, not_tracked: 0 };
    for (const shipment of remembered) {
      const outcome = await trackShipment(this.deps.trackings, instance, shipment, now);
      if (outcome === 'created') counts.created++;
      else if (outcome === 'kept') counts.already_tracked++;
      else counts.not_tracked++;
    }
    await outbox.add([
      activityEntry({
        tenantId,
        id: `backfill_completed:${event.id}`,
        event: 'backfill_completed',
        description: `Backfill completed: ${counts.created} shipments now tracked`,
        integrationInstanceId: instanceId,
        properties: { ...base, shipments_count: remembered.length, ...counts },
      }),
    ]);
  }
}
