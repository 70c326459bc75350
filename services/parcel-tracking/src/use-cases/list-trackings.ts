import { notFound } from '@inventory/platform';
import type { InstanceStore } from '../store/instance-store.js';
import type { TrackingListQuery, TrackingRows } from '../store/tracking-rows.js';
import type { TrackingDocument } from '../store/tracking-store.js';

/** One page of an instance's tracking rows; the gateway has validated the query. */
export class ListTrackings {
  constructor(
    private readonly instances: InstanceStore,
    private readonly rows: TrackingRows,
  ) {}

  async execute(
    tenantId: string,
    instanceId: number,
    query: TrackingListQuery,
  ): Promise<{ rows: TrackingDocument[]; total: number }> {
    // Both reads are scoped to the tenant, so the page may be read beside the existence check
    // (one round trip instead of two); an unknown instance still answers 404 and nothing else.
    const [instance, page] = await Promise.all([
      this.instances.find(tenantId, instanceId),
      this.rows.list(tenantId, instanceId, query),
    ]);
    if (!instance) throw notFound('Parcel-tracking instance not found.');
    return page;
  }
}
