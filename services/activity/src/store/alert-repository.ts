import { isDuplicateKeyError, nextSequence, tenantFilter } from '@inventory/platform';
import type { Connection, FilterQuery } from 'mongoose';
import { alertModel, type AlertDocument, type AlertModel } from './alert-model.js';

export type NewAlert = Omit<AlertDocument, 'id' | 'read_at'>;

export interface AlertPageQuery {
  unreadOnly: boolean;
  page: number;
  perPage: number;
}

const NEWEST_FIRST = { created_at: -1, id: -1 } as const;

/** The tenant's alerts; every query is scoped by `tenantFilter`. */
export class AlertRepository {
  private readonly model: AlertModel;

  constructor(private readonly connection: Connection) {
    this.model = alertModel(connection);
  }

  /**
   * Stores an alert once per (tenant, key): an alert already there is returned
   * unchanged (its read state too), also when a concurrent insert wins the race.
   */
  async insertOnce(alert: NewAlert): Promise<{ row: AlertDocument; created: boolean }> {
    const existing = await this.findByKey(alert.tenant_id, alert.key);
    if (existing) return { row: existing, created: false };
    const row: AlertDocument = {
      ...alert,
      id: await nextSequence(this.connection, 'alerts'),
      read_at: null,
    };
    try {
      await this.model.create(row);
      return { row, created: true };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const winner = await this.findByKey(alert.tenant_id, alert.key);
      if (!winner) throw error;
      return { row: winner, created: false };
    }
  }

  async page(
    tenantId: string,
    query: AlertPageQuery,
  ): Promise<{ rows: AlertDocument[]; total: number; unread: number }> {
    const unreadFilter = tenantFilter<AlertDocument>(tenantId, { read_at: null });
    const filter = query.unreadOnly ? unreadFilter : tenantFilter<AlertDocument>(tenantId, {});
    const [rows, total, unread] = await Promise.all([
      this.model
        .find(filter, { _id: 0 })
        .sort(NEWEST_FIRST)
        .skip((query.page - 1) * query.perPage)
        .limit(query.perPage)
        .lean<AlertDocument[]>()
        .exec(),
      this.model.countDocuments(filter).exec(),
      query.unreadOnly ? undefined : this.model.countDocuments(unreadFilter).exec(),
    ]);
    return { rows, total, unread: unread ?? total };
  }

  /** Sets read_at once; null when the tenant has no such alert. */
  async markRead(tenantId: string, id: number, at: Date): Promise<AlertDocument | null> {
    await this.model
      .updateOne(tenantFilter<AlertDocument>(tenantId, { id, read_at: null }), {
        $set: { read_at: at },
      })
      .exec();
    return this.model
      .findOne(tenantFilter<AlertDocument>(tenantId, { id }), { _id: 0 })
      .lean<AlertDocument>()
      .exec();
  }

  /** Marks every unread alert read; returns how many changed. */
  async markAllRead(tenantId: string, at: Date): Promise<number> {
    const unread: FilterQuery<AlertDocument> = tenantFilter<AlertDocument>(tenantId, {
      read_at: null,
    });
    const result = await this.model.updateMany(unread, { $set: { read_at: at } }).exec();
    return result.modifiedCount;
  }

  private findByKey(tenantId: string, key: string): Promise<AlertDocument | null> {
    return this.model
      .findOne(tenantFilter<AlertDocument>(tenantId, { key }), { _id: 0 })
      .lean<AlertDocument>()
      .exec();
  }
}
