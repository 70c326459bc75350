import type { Connection } from 'mongoose';
import { nextSequence, TenantScopedRepository, type ScopedFilter } from '@inventory/platform';
import {
  TERMINAL_STATUSES,
  zeroStatusCounts,
  type DeliveryStatus,
} from '../domain/delivery-status.js';
import { lateConditions, stalledConditions } from '../domain/shipment-watch.js';
import type { DeliveredRow } from '../domain/transit.js';
import {
  IS_SET,
  RETIRED_TRACKING_INDEXES,
  trackingModel,
  type NewTracking,
  type TrackingDocument,
} from './tracking.js';

type TrackingFilter = ScopedFilter<TrackingDocument>;

/** An instance's rows as the dashboard and a disconnect see them. */
export class TrackingStore extends TenantScopedRepository<TrackingDocument> {
  constructor(private readonly connection: Connection) {
    super(trackingModel(connection));
  }

  async insert(row: NewTracking): Promise<TrackingDocument> {
    const now = new Date();
    return this.insertWithDefaults({
      ...row,
      id: await nextSequence(this.connection, 'tracking_rows'),
      created_at: row.created_at ?? now,
      updated_at: now,
    });
  }

  /** The instance's rows matching `filter`. */
  private ofInstance(instanceId: number, filter: TrackingFilter = {}): TrackingFilter {
    return { integration_instance_id: instanceId, ...filter };
  }

  /** Drops the retired indexes still present (`dropIndexes`); answers the names dropped. */
  dropRetiredIndexes(): Promise<string[]> {
    return this.dropIndexes(RETIRED_TRACKING_INDEXES);
  }

  async statusCounts(
    tenantId: string,
    instanceId: number,
  ): Promise<Record<DeliveryStatus, number>> {
    const counts = zeroStatusCounts();
    const groups = await this.aggregate<{ _id: DeliveryStatus; count: number }>(
      tenantId,
      this.ofInstance(instanceId),
      [{ $group: { _id: '$delivery_status', count: { $sum: 1 } } }],
    );
    for (const group of groups) if (group._id in counts) counts[group._id] = group.count;
    return counts;
  }

  /** How many of the instance's rows are stalled and late at `now` (ADR 0218). */
  async watchCounts(
    tenantId: string,
    instanceId: number,
    now: Date,
    stalledAfterMs: number,
  ): Promise<{ stalled: number; late: number }> {
    const [stalled, late] = await Promise.all([
      this.count(tenantId, this.ofInstance(instanceId, stalledConditions(now, stalledAfterMs))),
      this.count(tenantId, this.ofInstance(instanceId, lateConditions(now))),
    ]);
    return { stalled, late };
  }

  /**
   * Rows still waiting to be registered: never registered, not given up, not stopped. A row whose
   * registration failed and will be retried (a failed call, an exhausted quota) is still pending.
   */
  pendingRegistrationCount(tenantId: string, instanceId: number): Promise<number> {
    return this.count(
      tenantId,
      this.ofInstance(instanceId, {
        registered_at: null,
        registration_given_up_at: null,
        stopped_at: null,
      }),
    );
  }

  async registrationErrors(
    tenantId: string,
    instanceId: number,
  ): Promise<Array<{ message: string; count: number; last_failed_at: Date }>> {
    const groups = await this.aggregate<{
      _id: string;
      count: number;
      last: Date | null;
      updated: Date;
    }>(
      tenantId,
      this.ofInstance(instanceId, { registration_error: { $ne: null }, registered_at: null }),
      [
        {
          $group: {
            _id: '$registration_error',
            count: { $sum: 1 },
            last: { $max: '$registration_failed_at' },
            updated: { $max: '$updated_at' },
          },
        },
      ],
    );
    return groups
      .map((group) => ({
        message: group._id,
        count: group.count,
        last_failed_at: group.last ?? group.updated,
      }))
      .sort((a, b) => b.count - a.count || b.last_failed_at.getTime() - a.last_failed_at.getTime());
  }

  async lastEventAt(tenantId: string, instanceId: number): Promise<Date | null> {
    const [row] = await this.findMany(
      tenantId,
      this.ofInstance(instanceId, { last_event_at: IS_SET }),
      { projection: { last_event_at: 1 }, sort: { last_event_at: -1 }, limit: 1 },
    );
    return row?.last_event_at ?? null;
  }

  async deliveredSince(tenantId: string, instanceId: number, since: Date): Promise<DeliveredRow[]> {
    const rows = await this.findMany(
      tenantId,
      this.ofInstance(instanceId, { delivered_at: { $gte: since } }),
      {
        projection: {
          _id: 0,
          carrier_code: 1,
          carrier_name: 1,
          created_at: 1,
          picked_up_at: 1,
          delivered_at: 1,
          estimated_delivery_at: 1,
        },
      },
    );
    return rows as DeliveredRow[];
  }

  /**
   * Marks every active row (not stopped, not in a terminal status) stopped and
   * returns those the provider is tracking, so they can be stopped there too.
   */
  async stopActive(
    tenantId: string,
    instanceId: number,
    at: Date,
  ): Promise<Array<{ number: string; carrier: number | null; key_ref: string | null }>> {
    const active = this.ofInstance(instanceId, {
      stopped_at: null,
      delivery_status: { $nin: TERMINAL_STATUSES },
    });
    // Every row the provider may still track, not only the active ones: a delivered row waits
    // STOP_DELIVERED_AFTER_MS for the stopping worker, which never runs for a deleted instance.
    const registered = await this.findMany(
      tenantId,
      this.ofInstance(instanceId, { registered_at: { $ne: null }, provider_stopped_at: null }),
      { projection: { tracking_number: 1, carrier_code: 1, registered_key_ref: 1 } },
    );
    await this.updateMany(tenantId, active, {
      $set: { stopped_at: at, active: false, updated_at: at },
    });
    return registered.map((row) => ({
      number: row.tracking_number,
      carrier: row.carrier_code,
      key_ref: row.registered_key_ref ?? null,
    }));
  }

  async markProviderStopped(
    tenantId: string,
    instanceId: number,
    numbers: string[],
    at: Date,
  ): Promise<void> {
    await this.updateMany(
      tenantId,
      this.ofInstance(instanceId, { tracking_number: { $in: numbers }, provider_stopped_at: null }),
      { $set: { provider_stopped_at: at } },
    );
  }

  find(tenantId: string, instanceId: number): Promise<TrackingDocument[]> {
    return this.findMany(tenantId, this.ofInstance(instanceId), { sort: { id: 1 } });
  }
}
