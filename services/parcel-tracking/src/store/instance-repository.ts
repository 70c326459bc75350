import type { Connection } from 'mongoose';
import { nextSequence, TenantScopedRepository } from '@inventory/platform';
import {
  instanceModel,
  type InstanceDocument,
  type NewInstance,
  type QuotaAlertState,
} from './instance.js';
import { DEFAULT_FORECAST_ALERT_DAYS, type ForecastAlertState } from '../domain/quota-forecast.js';

export class InstanceRepository extends TenantScopedRepository<InstanceDocument> {
  constructor(private readonly connection: Connection) {
    super(instanceModel(connection));
  }

  /** Throws a duplicate-key error when the tenant already has an instance. */
  async create(instance: NewInstance): Promise<InstanceDocument> {
    const now = new Date();
    const doc: InstanceDocument = {
      ...instance,
      id: await nextSequence(this.connection, 'instances'),
      created_at: now,
      updated_at: now,
    };
    await this.insertOne(doc);
    return doc;
  }

  find(tenantId: string, id: number): Promise<InstanceDocument | null> {
    return this.findOne(tenantId, { id });
  }

  /** `find` through the driver, scoped to the tenant: a read on every webhook batch (ADR 0229). */
  findDirect(tenantId: string, id: number): Promise<InstanceDocument | null> {
    return this.driverCollection().findOne(
      this.scope(tenantId, { id }) as object,
    ) as Promise<InstanceDocument | null>;
  }

  /** Whether the tenant has connected its one instance (the singleton rule, before a create). */
  existsForTenant(tenantId: string): Promise<boolean> {
    return this.exists(tenantId, {});
  }

  findForTenant(tenantId: string): Promise<InstanceDocument | null> {
    return this.findOne(tenantId, {});
  }

  /**
   * Every tenant's instance (one per tenant), for the background workers that sweep all of them;
   * nothing tenant-facing calls it.
   */
  listAcrossTenants(): Promise<InstanceDocument[]> {
    return this.acrossTenants().find({}).sort({ id: 1 }).lean<InstanceDocument[]>();
  }

  /**
   * Moves the quota alert state machine only from the state it was read in, so
   * two replicas reading one quota raise one alert; counts the alerts raised.
   */
  moveQuotaAlert(
    tenantId: string,
    id: number,
    from: QuotaAlertState,
    threshold: number,
    to: QuotaAlertState,
    raised: boolean,
  ): Promise<InstanceDocument | null> {
    return this.findOneAndUpdate(
      tenantId,
      { id, quota_alert_state: from, quota_alert_threshold: threshold },
      {
        $set: { quota_alert_state: to },
        ...(raised ? { $inc: { quota_alerts_raised: 1 } } : {}),
      },
    );
  }

  /**
   * Moves the forecast alert only from the state (and setting) it was read in, as
   * `moveQuotaAlert` does; an instance stored before the forecast reads as armed.
   */
  moveForecastAlert(
    tenantId: string,
    id: number,
    from: ForecastAlertState,
    alertDays: number,
    to: ForecastAlertState,
    raised: boolean,
  ): Promise<InstanceDocument | null> {
    const state = from === 'armed' ? { $in: ['armed', null] } : from;
    return this.findOneAndUpdate(
      tenantId,
      {
        id,
        quota_forecast_alert_state: state,
        quota_forecast_alert_days:
          alertDays === DEFAULT_FORECAST_ALERT_DAYS ? { $in: [alertDays, null] } : alertDays,
      },
      {
        $set: { quota_forecast_alert_state: to },
        ...(raised ? { $inc: { quota_forecast_alerts_raised: 1 } } : {}),
      },
    );
  }

  /** Counts registrations that re-used the provider's existing one (ADR 0236). */
  async addUnitsSaved(tenantId: string, id: number, units: number): Promise<void> {
    if (units <= 0) return;
    await this.updateOne(tenantId, { id }, { $inc: { quota_units_saved: units } });
  }

  async update(
    tenantId: string,
    id: number,
    changes: Partial<InstanceDocument>,
  ): Promise<InstanceDocument | null> {
    // Nothing to change (an empty PATCH, or only unknown keys): no write, updated_at stays.
    if (Object.keys(changes).length === 0) return this.find(tenantId, id);
    return this.findOneAndUpdate(
      tenantId,
      { id },
      { $set: { ...changes, updated_at: new Date() } },
    );
  }

  async delete(tenantId: string, id: number): Promise<boolean> {
    return (await this.deleteOne(tenantId, { id })) === 1;
  }
}
