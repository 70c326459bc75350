import type { Connection } from 'mongoose';
import { isDuplicateKeyError, TenantScopedRepository } from '@inventory/platform';
import {
  salesChannelModel,
  type ChannelSnapshot,
  type SalesChannelDocument,
} from './sales-channel.js';

export class SalesChannelRepository extends TenantScopedRepository<SalesChannelDocument> {
  constructor(connection: Connection) {
    super(salesChannelModel(connection));
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
