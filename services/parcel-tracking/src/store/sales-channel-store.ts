import { Schema, type Connection } from 'mongoose';
import { isDuplicateKeyError, TenantScopedRepository } from '@inventory/platform';

export interface SubChannelView {
  id: number;
  name: string;
  external_identifier: string;
}

/** The trackable-channels read model, fed by catalog.sales_channel.* events. */
export interface SalesChannelDocument {
  tenant_id: string;
  sales_channel_id: number;
  name: string;
  platform: string;
  icon_url: string;
  sub_channels: SubChannelView[];
  connected: boolean;
  /** The version of the last event applied; older events are ignored. */
  version: number;
  updated_at: Date;
}

const schema = new Schema<SalesChannelDocument>(
  {
    tenant_id: { type: String, required: true },
    sales_channel_id: { type: Number, required: true },
    name: { type: String, default: '' },
    platform: { type: String, default: '' },
    icon_url: { type: String, default: '' },
    sub_channels: {
      type: [{ _id: false, id: Number, name: String, external_identifier: String }],
      default: [],
    },
    connected: { type: Boolean, required: true },
    version: { type: Number, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'sales_channels' },
);
schema.index({ tenant_id: 1, sales_channel_id: 1 }, { unique: true });
schema.index({ tenant_id: 1, connected: 1 });

export type ChannelSnapshot = Pick<
  SalesChannelDocument,
  'name' | 'platform' | 'icon_url' | 'sub_channels'
>;

export class SalesChannelStore extends TenantScopedRepository<SalesChannelDocument> {
  constructor(connection: Connection) {
    super(connection.model<SalesChannelDocument>('SalesChannel', schema));
  }

  /**
   * Applies a change only when it is newer than what is stored. `connected`
   * undefined keeps the current state (an update never reconnects a channel); a
   * first event for a channel creates it. Returns whether anything changed.
   */
  async apply(
    tenantId: string,
    channelId: number,
    version: number,
    change: Partial<ChannelSnapshot> & { connected?: boolean },
  ): Promise<boolean> {
    const set: Record<string, unknown> = { version, updated_at: new Date() };
    for (const [key, value] of Object.entries(change)) if (value !== undefined) set[key] = value;
    // A first event for a channel creates it connected unless it says otherwise.
    const update =
      change.connected === undefined
        ? { $set: set, $setOnInsert: { connected: true } }
        : { $set: set };
    try {
      const result = await this.upsertOne(
        tenantId,
        { sales_channel_id: channelId, version: { $lt: version } },
        update,
      );
      return result.modified + result.upserted > 0;
    } catch (error) {
      // The channel exists with a newer version: the upsert collided with it.
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  listConnected(tenantId: string): Promise<SalesChannelDocument[]> {
    return this.findMany(tenantId, { connected: true }, { sort: { sales_channel_id: 1 } });
  }
}
