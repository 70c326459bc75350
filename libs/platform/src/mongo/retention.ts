import type { mongo } from 'mongoose';
import type { Logger } from 'pino';

/** How long a collection keeps its rows: those whose `field` (a date) is older are deleted. */
export interface Retention {
  collection: mongo.Collection;
  field: string;
  days: number;
}

const NAMESPACE_NOT_FOUND = 26;

/**
 * Makes each collection keep its rows for its configured number of days, through a TTL index on
 * the date field: created when missing, re-created when the days changed (MongoDB deletes expired
 * rows in the background, a bounded cost spread over time). Run at start, so a changed setting
 * applies at the next deploy. Maintenance, never a reason not to start: a failure is logged and
 * tried again at the next start.
 */
export async function applyRetention(logger: Logger, ...retentions: Retention[]): Promise<void> {
  for (const { collection, field, days } of retentions) {
    const expireAfterSeconds = Math.round(days * 24 * 3600);
    try {
      const indexes = await collection.indexes().catch((error: { code?: number }) => {
        if (error.code === NAMESPACE_NOT_FOUND) return [];
        throw error;
      });
      const existing = indexes.find(
        (index) => Object.keys(index.key).length === 1 && index.key[field] === 1,
      );
      if (existing?.expireAfterSeconds === expireAfterSeconds) continue;
      if (existing?.name) await collection.dropIndex(existing.name);
      await collection.createIndex({ [field]: 1 }, { expireAfterSeconds });
      logger.info(
        { collection: collection.collectionName, field, days },
        'retention set: older rows are deleted',
      );
    } catch (error) {
      logger.warn(
        { err: error, collection: collection.collectionName, field, days },
        'retention not set; tried again at the next start',
      );
    }
  }
}
