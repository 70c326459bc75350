import { isDuplicateKeyError, tenantFilter } from '@inventory/platform';
import type { Model } from 'mongoose';

/** What every versioned read-model row carries besides its own fields. */
export interface VersionedRow {
  tenant_id: string;
  id: number;
  /** The version of the last event applied; events at or below it are ignored. */
  version: number;
  /** A tombstone: the record was deleted at `version` and is never listed again. */
  deleted: boolean;
}

/**
 * Writes `fields` onto the (tenant, id) row only when `version` is newer than the stored one; the
 * first event for an id creates the row (a delete creates a tombstone). One conditional upsert,
 * so concurrent or redelivered events cannot interleave: an older event either matches nothing
 * and collides with the unique (tenant_id, id) index, or is outrun by the newer write.
 * Returns whether the row changed.
 */
export async function applyVersioned<Row extends VersionedRow>(
  model: Model<Row>,
  tenantId: string,
  id: number,
  version: number,
  fields: Partial<Row>,
): Promise<boolean> {
  const filter = tenantFilter<Row>(tenantId, { id, version: { $lt: version } });
  // The id comes from the filter on insert; it is never rewritten.
  const { id: _id, ...changes } = fields;
  try {
    const result = await model.updateOne(
      filter,
      { $set: { ...changes, version } },
      { upsert: true },
    );
    return result.modifiedCount + result.upsertedCount > 0;
  } catch (error) {
    // The row exists with this or a newer version: the upsert collided with it.
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}
