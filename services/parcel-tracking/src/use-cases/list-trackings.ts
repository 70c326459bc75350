import { notFound } from '@inventory/platform';
import type { TrackingListQuery } from '../store/tracking-rows.js';
import type { TrackingDocument } from '../store/tracking-store.js';
import type { Deps } from './deps.js';

/** One page of an instance's tracking rows; the gateway has validated the query. */
export class ListTrackings {
  constructor(private readonly deps: Pick<Deps, 'instances' | 'rows'>) {}

  async execute(
    tenantId: string,
    instanceId: number,
    query: TrackingListQuery,
  ): Promise<{ rows: TrackingDocument[]; total: number }> {
    const instance = await this.deps.instances.find(tenantId, instanceId);
    if (!instance) throw notFound('Parcel-tracking instance not found.');
    return this.deps.rows.list(tenantId, instanceId, query);
  }
}
