import { notFound } from '@inventory/platform';
import type { InstanceHistoryRepository } from '../store/instance-history-repository.js';
import type { InstanceRepository } from '../store/instance-repository.js';

/**
 * Whether the tenant has this instance, and the tenant's disconnected instances whose rows are
 * its read-only history (ADR 0215); no provider call, so it is cheap.
 */
export class CheckInstance {
  constructor(
    private readonly instances: InstanceRepository,
    private readonly history: InstanceHistoryRepository,
  ) {}

  async execute(tenantId: string, id: number): Promise<{ id: number; historyIds: number[] }> {
    const [instance, historyIds] = await Promise.all([
      this.instances.find(tenantId, id),
      this.history.instanceIds(tenantId),
    ]);
    if (!instance) throw notFound('Parcel-tracking instance not found.');
    return { id, historyIds: historyIds.filter((earlier) => earlier !== id) };
  }
}
