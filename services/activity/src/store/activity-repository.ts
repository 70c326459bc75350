import { isDuplicateKeyError, nextSequence, tenantFilter } from '@inventory/platform';
import type { Connection } from 'mongoose';
import type { ActivityQuery } from '../domain/activity-query.js';
import { activityFilter, activitySort } from './activity-filter.js';
import { activityModel, type ActivityDocument, type ActivityModel } from './activity-model.js';

export type NewActivity = Omit<ActivityDocument, 'id'>;

export class ActivityRepository {
  private readonly model: ActivityModel;

  constructor(private readonly connection: Connection) {
    this.model = activityModel(connection);
  }

  /**
   * Stores a row once per (tenant, source_id): a row already there is returned
   * unchanged, also when a concurrent insert wins the race (unique index).
   */
  async insertOnce(activity: NewActivity): Promise<{ row: ActivityDocument; created: boolean }> {
    const existing = await this.findBySource(activity.tenant_id, activity.source_id);
    if (existing) return { row: existing, created: false };
    const row: ActivityDocument = {
      ...activity,
      id: await nextSequence(this.connection, 'activities'),
    };
    try {
      await this.model.create(row);
      return { row, created: true };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const winner = await this.findBySource(activity.tenant_id, activity.source_id);
      if (!winner) throw error;
      return { row: winner, created: false };
    }
  }

  async list(
    tenantId: string,
    query: ActivityQuery,
  ): Promise<{ rows: ActivityDocument[]; total: number }> {
    const filter = activityFilter(tenantId, query);
    const [rows, total] = await Promise.all([
      this.model
        .find(filter, { _id: 0 })
        .sort(activitySort(query.sort))
        .skip((query.page - 1) * query.perPage)
        .limit(query.perPage)
        .lean<ActivityDocument[]>()
        .exec(),
      this.model.countDocuments(filter).exec(),
    ]);
    return { rows, total };
  }

  private findBySource(tenantId: string, sourceId: string): Promise<ActivityDocument | null> {
    return this.model
      .findOne(tenantFilter<ActivityDocument>(tenantId, { source_id: sourceId }), { _id: 0 })
      .lean<ActivityDocument>()
      .exec();
  }
}
