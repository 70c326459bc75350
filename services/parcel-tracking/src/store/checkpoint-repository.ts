import type { Connection } from 'mongoose';
import { TenantScopedRepository, type Retention } from '@inventory/platform';
import { TRACKING_CHECKPOINTS_MAX, type KeptCheckpoint } from '../domain/checkpoints.js';
import { checkpointModel, type CheckpointDocument } from './checkpoint.js';

export class CheckpointRepository extends TenantScopedRepository<CheckpointDocument> {
  constructor(connection: Connection) {
    super(checkpointModel(connection));
  }

  /** A row's checkpoints go `days` after it last took a new one (`applyRetention` at start). */
  retention(days: number): Retention {
    return this.retentionOf('touched_at', days);
  }

  /**
   * Keeps the checkpoints the row does not hold yet (each once, whatever the order and the
   * repeats), then only the newest TRACKING_CHECKPOINTS_MAX. Answers how many were new.
   */
  async merge(
    tenantId: string,
    trackingId: number,
    checkpoints: KeptCheckpoint[],
    now: Date,
  ): Promise<number> {
    if (checkpoints.length === 0) return 0;
    const collection = this.driverCollection();
    let added = 0;
    try {
      const result = await collection.insertMany(
        checkpoints.map((checkpoint) => ({
          ...checkpoint,
          tenant_id: tenantId,
          tracking_id: trackingId,
          recorded_at: now,
          touched_at: now,
        })),
        { ordered: false },
      );
      added = result.insertedCount;
    } catch (error) {
      const bulk = error as {
        insertedCount?: number;
        result?: { insertedCount?: number };
        writeErrors?: Array<{ code?: number; err?: { code?: number } }> | unknown;
      };
      const writeErrors = Array.isArray(bulk.writeErrors) ? bulk.writeErrors : [];
      const onlyDuplicates =
        writeErrors.length > 0 &&
        writeErrors.every(
          (item: { code?: number; err?: { code?: number } }) =>
            (item.code ?? item.err?.code) === 11000,
        );
      if (!onlyDuplicates) throw error;
      added = bulk.insertedCount ?? bulk.result?.insertedCount ?? 0;
    }
    if (added === 0) return 0;
    const scope = this.scope(tenantId, { tracking_id: trackingId }) as object;
    await collection.updateMany(scope, { $set: { touched_at: now } });
    const beyond = await collection
      .find(scope, { projection: { _id: 1 } })
      .sort({ occurred_at: -1, seq: -1, key: 1 })
      .skip(TRACKING_CHECKPOINTS_MAX)
      .toArray();
    if (beyond.length > 0)
      await collection.deleteMany(
        this.scope(tenantId, { _id: { $in: beyond.map((doc) => doc._id) } } as never) as object,
      );
    return added;
  }

  /** A row's kept checkpoints, newest first. */
  async timeline(tenantId: string, trackingId: number): Promise<CheckpointDocument[]> {
    return (await this.driverCollection()
      .find(this.scope(tenantId, { tracking_id: trackingId }) as object, {
        projection: { _id: 0 },
      })
      .sort({ occurred_at: -1, seq: -1, key: 1 })
      .limit(TRACKING_CHECKPOINTS_MAX)
      .toArray()) as CheckpointDocument[];
  }
}
