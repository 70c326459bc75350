import { shipmentWatchOf, stalledThresholds } from '../domain/shipment-watch.js';
import { notFound } from '@inventory/platform';
import type { InstanceHistoryRepository } from '../store/instance-history-repository.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import type { TrackingListQuery } from '../store/tracking-queries.js';
import type { TrackingDocument } from '../store/tracking.js';

/**
 * One page of an instance's tracking rows, with the rows of the tenant's disconnected instances
 * as its read-only history (ADR 0215); the gateway has validated the query.
 */
export class ListTrackings {
  constructor(
    private readonly deps: {
      instances: InstanceRepository;
      trackings: TrackingRepository;
      history: InstanceHistoryRepository;
    },
  ) {}

  async execute(
    tenantId: string,
    instanceId: number,
    listing: TrackingListQuery & { stalled?: boolean; late?: boolean },
    now = new Date(),
  ): Promise<{ rows: TrackingDocument[]; total: number }> {
    const { stalled, late, ...query } = listing;
    // Both reads are scoped to the tenant; the page needs the history, so it is read after them.
    const [instance, earlier] = await Promise.all([
      this.deps.instances.find(tenantId, instanceId),
      this.deps.history.instanceIds(tenantId),
    ]);
    if (!instance) throw notFound('Parcel-tracking instance not found.');
    // The instance's thresholds judge its history's rows too: one answer to "is it stalled".
    if (stalled)
      query.stalledAt = {
        now,
        thresholds: stalledThresholds(shipmentWatchOf(instance.shipment_watch)),
      };
    if (late) query.lateAt = now;
    const ids = [instanceId, ...earlier.filter((id) => id !== instanceId)];
    return this.deps.trackings.list(tenantId, ids, query);
  }
}
