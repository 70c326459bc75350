import { nextSequence, TenantScopedRepository, type Retention } from '@inventory/platform';
import { Schema, type Connection } from 'mongoose';
import type { AlertReader, ValidAlert } from '../domain/alert.js';
import { insertOnce } from './insert-once.js';

/**
 * A stored alert: the checked alert as `validateAlert` answers it (its `key`, the producer's dedupe
 * key, is unique per tenant, so a key raised twice is one alert), with its id and times.
 */
export interface AlertDocument extends ValidAlert {
  id: number;
  tenant_id: string;
  read_at: Date | null;
  created_at: Date;
  /** When this service stored it: what retention counts from (see ActivityDocument). */
  stored_at?: Date;
}

const schema = new Schema<AlertDocument>(
  {
    id: { type: Number, required: true },
    tenant_id: { type: String, required: true },
    key: { type: String, required: true },
    kind: { type: String, required: true },
    priority: { type: String, required: true },
    title: { type: String, required: true },
    message: { type: String, default: '' },
    link: { type: String, default: null },
    properties: { type: Schema.Types.Mixed, default: () => ({}) },
    recipient_user_id: { type: Number, default: null },
    read_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    stored_at: { type: Date },
  },
  // `minimize: false` keeps an empty properties object instead of dropping the field.
  { versionKey: false, collection: 'alerts', minimize: false },
);

schema.index({ tenant_id: 1, id: 1 }, { unique: true });
schema.index({ tenant_id: 1, key: 1 }, { unique: true });
// The bell: newest first, all or unread only, and the unread count, of one reader's audience
// (their own alerts and, with alerts:view, the inbox's: `recipient_user_id` null).
schema.index({ tenant_id: 1, recipient_user_id: 1, created_at: -1, id: -1 });
schema.index({ tenant_id: 1, recipient_user_id: 1, read_at: 1, created_at: -1, id: -1 });

/** The bell's indexes before alerts had recipients (ADR 0303). */
const RETIRED_ALERT_INDEXES = [
  'tenant_id_1_created_at_-1_id_-1',
  'tenant_id_1_read_at_1_created_at_-1_id_-1',
];

export type NewAlert = Omit<AlertDocument, 'id' | 'tenant_id' | 'read_at' | 'stored_at'>;

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
    // A second repository on the same connection reuses the model (mongoose refuses a redefinition).
    super(connection.models.Alert ?? connection.model<AlertDocument>('Alert', schema));
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
