import { notFound } from '@inventory/platform';
import type { TrackingRepository } from '../store/tracking-repository.js';
import type { TrackingListQuery } from '../store/tracking-queries.js';
import type { TrackingDocument } from '../store/tracking.js';
import type { TrackingScopes } from './tracking-scopes.js';

/**
 * One page of an instance's tracking rows, with the rows of the tenant's disconnected instances
 * as its read-only history (ADR 0215); the gateway has validated the query.
 */
export class ListTrackings {
  constructor(
    private readonly deps: {
      scopes: Pick<TrackingScopes, 'get'>;
      trackings: TrackingRepository;
    },
  ) {}

  async execute(
    tenantId: string,
    instanceId: number,
    listing: TrackingListQuery & { stalled?: boolean; late?: boolean },
    now = new Date(),
  ): Promise<{ rows: TrackingDocument[]; total: number }> {
    const { stalled, late, ...query } = listing;
    const scope = await this.deps.scopes.get(tenantId, instanceId);
    if (!scope) throw notFound('Parcel-tracking instance not found.');
    if (stalled) query.stalledAt = { now, thresholds: scope.thresholds };
    if (late) query.lateAt = now;
    return this.deps.trackings.list(tenantId, scope.instanceIds, query);
  }
}
