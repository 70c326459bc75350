import { notFound } from '@inventory/platform';
import type { CheckpointDocument } from '../store/checkpoint.js';
import type { CheckpointRepository } from '../store/checkpoint-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import type { TrackingDocument } from '../store/tracking.js';
import type { TrackingScopes } from './tracking-scopes.js';

/**
 * One tracking row for a shipment's page: the instance's own, or one of the tenant's disconnected
 * instances' rows that the list shows as its history (ADR 0215), with its kept checkpoints,
 * newest first (ADR 0216).
 */
export class GetTracking {
  constructor(
    private readonly deps: {
      scopes: Pick<TrackingScopes, 'get'>;
      trackings: TrackingRepository;
      checkpoints: CheckpointRepository;
    },
  ) {}

  async execute(
    tenantId: string,
    instanceId: number,
    id: number,
  ): Promise<{ row: TrackingDocument; checkpoints: CheckpointDocument[] }> {
    const scope = await this.deps.scopes.get(tenantId, instanceId);
    if (!scope) throw notFound('Parcel-tracking instance not found.');
    const row = await this.deps.trackings.ofInstances(tenantId, scope.instanceIds, id);
    if (!row) throw notFound('Tracking not found.');
    return { row, checkpoints: await this.deps.checkpoints.timeline(tenantId, row.id) };
  }
}
