import { nextSequence, TenantScopedRepository, type Retention } from '@inventory/platform';
import type { Connection } from 'mongoose';
import type { AlertReader } from '../domain/alert.js';
import { alertModel, RETIRED_ALERT_INDEXES, type AlertDocument, type NewAlert } from './alert.js';
import { insertOnce } from './insert-once.js';

export interface AlertPageQuery {
  reader: AlertReader;
  unreadOnly: boolean;
  page: number;
  perPage: number;
}

const NEWEST_FIRST = { created_at: -1, id: -1 } as const;
const WITHOUT_MONGO_ID = { _id: 0 } as const;
const UNREAD = { read_at: null };

/** The alerts a reader sees: their own, and the tenant inbox's when they hold alerts:view. */
const audienceOf = (reader: AlertReader) => ({
  recipient_user_id: reader.tenantInbox ? { $in: [null, reader.userId] } : reader.userId,
});

/** The tenant's alerts; every query goes through `TenantScopedRepository`. */
export class AlertRepository extends TenantScopedRepository<AlertDocument> {
  constructor(private readonly connection: Connection) {
    super(alertModel(connection));
  }
  /** Drops the retired indexes still present; answers the names dropped. */
  dropRetiredIndexes(): Promise<string[]> {
    return this.dropIndexes(RETIRED_ALERT_INDEXES);
  }

  /** Alerts stored more than `days` ago are deleted (`ALERT_RETENTION_DAYS`). */
  retention(days: number): Retention {
    return this.retentionOf('stored_at', days);
  }

  /**
   * Stores an alert once per (tenant, key); one already there keeps its read state. The
   * tenant is the event's, passed apart so that the alert cannot be stored under another.
   */
  insertOnce(tenantId: string, alert: NewAlert): Promise<{ row: AlertDocument; created: boolean }> {
    return insertOnce({
      find: () => this.findByKey(tenantId, alert.key),
      build: async () => ({
        ...alert,
        tenant_id: tenantId,
        id: await nextSequence(this.connection, 'alerts'),
        read_at: null,
        stored_at: new Date(),
      }),
      insert: (row) => this.insertOne(row),
    });
  }

  async listPage(
    tenantId: string,
    query: AlertPageQuery,
  ): Promise<{ rows: AlertDocument[]; total: number; unread: number }> {
    const audience = audienceOf(query.reader);
    const filter = query.unreadOnly ? { ...audience, ...UNREAD } : audience;
    const [{ rows, total }, unread] = await Promise.all([
      this.page(tenantId, filter, {
        projection: WITHOUT_MONGO_ID,
        sort: NEWEST_FIRST,
        page: query.page,
        perPage: query.perPage,
      }),
      query.unreadOnly ? undefined : this.count(tenantId, { ...audience, ...UNREAD }),
    ]);
    return { rows, total, unread: unread ?? total };
  }

  /** Sets read_at once; null when the reader sees no such alert. */
  async markRead(
    tenantId: string,
    reader: AlertReader,
    id: number,
    at: Date,
  ): Promise<AlertDocument | null> {
    const audience = audienceOf(reader);
    await this.updateOne(tenantId, { id, ...audience, ...UNREAD }, { $set: { read_at: at } });
    return this.findOne(tenantId, { id, ...audience }, WITHOUT_MONGO_ID);
  }

  /** Marks every unread alert the reader sees read; returns how many changed. */
  async markAllRead(tenantId: string, reader: AlertReader, at: Date): Promise<number> {
    const unread = { ...audienceOf(reader), ...UNREAD };
    return (await this.updateMany(tenantId, unread, { $set: { read_at: at } })).modified;
  }

  private findByKey(tenantId: string, key: string): Promise<AlertDocument | null> {
    return this.findOne(tenantId, { key }, WITHOUT_MONGO_ID);
  }
}
