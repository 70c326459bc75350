import { TtlCache } from '@inventory/platform';
import {
  shipmentWatchOf,
  stalledThresholds,
  type StalledThresholds,
} from '../domain/shipment-watch.js';
import type { InstanceHistoryRepository } from '../store/instance-history-repository.js';
import type { InstanceRepository } from '../store/instance-repository.js';

/** What an instance's trackings list and shipment pages read besides the rows themselves. */
export interface TrackingScope {
  /** The instance's own, which judge its history's rows too: one answer to "is it stalled". */
  thresholds: StalledThresholds;
  /** The instance, then the tenant's disconnected instances whose rows it shows (ADR 0215). */
  instanceIds: number[];
}

/**
 * Each instance's tracking scope, kept per replica for a short TTL (ADR 0240): a trackings page
 * then costs the page and its count, not two more reads of the instance and the tenant's history.
 * This replica's UpdateInstance and DeleteInstance drop the tenant's scopes once they have
 * written (a load under way then is not kept); another replica's change is seen within the TTL.
 * Unknown instances are not kept, so a new instance lists at once.
 */
export class TrackingScopes {
  private readonly scopes: TtlCache<string, TrackingScope | null>;

  constructor(
    private readonly deps: { instances: InstanceRepository; history: InstanceHistoryRepository },
    options: { ttlMs: number; now?: () => number },
  ) {
    this.scopes = new TtlCache({
      ttlMs: (scope) => (scope === null ? 0 : options.ttlMs),
      maxEntries: 10_000,
      now: options.now,
    });
  }

  /** The instance's scope, null when the tenant has no such instance. */
  get(tenantId: string, instanceId: number): Promise<TrackingScope | null> {
    return this.scopes.getOrLoad(keyOf(tenantId, instanceId), () =>
      this.load(tenantId, instanceId),
    );
  }

  /**
   * One of the tenant's instances changed or went away; a deleted one joins every later
   * instance's history, so all of the tenant's scopes go.
   */
  forgetTenant(tenantId: string): void {
    const prefix = keyOf(tenantId, '');
    this.scopes.deleteWhere((key) => key.startsWith(prefix));
  }

  private async load(tenantId: string, instanceId: number): Promise<TrackingScope | null> {
    const [instance, earlier] = await Promise.all([
      this.deps.instances.find(tenantId, instanceId),
      this.deps.history.instanceIds(tenantId),
    ]);
    if (!instance) return null;
    return {
      thresholds: stalledThresholds(shipmentWatchOf(instance.shipment_watch)),
      instanceIds: [instanceId, ...earlier.filter((id) => id !== instanceId)],
    };
  }
}

// Were a tenant id to hold the separator, forgetTenant could only drop more than it must.
const keyOf = (tenantId: string, instanceId: number | '') => `${tenantId}/${instanceId}`;
