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
    // Both reads are scoped to the tenant, so the page may be read beside the existence check
    // (one round trip instead of two); an unknown instance still answers 404 and nothing else.
    const [instance, page] = await Promise.all([
      this.deps.instances.find(tenantId, instanceId),
      this.deps.rows.list(tenantId, instanceId, query),
    ]);
    if (!instance) throw notFound('Parcel-tracking instance not found.');
    return page;
  }
}
