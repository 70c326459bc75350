import { notFound } from '@inventory/platform';
import type { CheckpointDocument } from '../store/checkpoint.js';
import type { CheckpointRepository } from '../store/checkpoint-repository.js';
import type { InstanceHistoryRepository } from '../store/instance-history-repository.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import type { TrackingDocument } from '../store/tracking.js';

/**
 * One tracking row for a shipment's page: the instance's own, or one of the tenant's disconnected
 * instances' rows that the list shows as its history (ADR 0215), with its kept checkpoints,
 * newest first (ADR 0216).
 */
export class GetTracking {
  constructor(
    private readonly deps: {
      instances: InstanceRepository;
      trackings: TrackingRepository;
      history: InstanceHistoryRepository;
      checkpoints: CheckpointRepository;
    },
  ) {}

  async execute(
    tenantId: string,
    instanceId: number,
    id: number,
  ): Promise<{ row: TrackingDocument; checkpoints: CheckpointDocument[] }> {
    const [instance, earlier] = await Promise.all([
      this.deps.instances.find(tenantId, instanceId),
      this.deps.history.instanceIds(tenantId),
    ]);
    if (!instance) throw notFound('Parcel-tracking instance not found.');
    const row = await this.deps.trackings.ofInstances(tenantId, [instanceId, ...earlier], id);
    if (!row) throw notFound('Tracking not found.');
    return { row, checkpoints: await this.deps.checkpoints.timeline(tenantId, row.id) };
  }
}
