import type { Connection } from 'mongoose';
import {
  escapeRegex,
  isDuplicateKeyError,
  nextSequence,
  TenantScopedRepository,
  type ScopedFilter,
} from '@inventory/platform';
import { trackingModel, type NewTracking, type TrackingDocument } from './tracking.js';

import { lateConditions, stalledConditions } from '../domain/shipment-watch.js';

export interface TrackingListQuery {
  search: string;
  deliveryStatuses: string[];
  carrierCodes: number[];
  trackableTypes: string[];
  createdFrom?: Date;
  createdBefore?: Date;
  /** Only stalled rows: in transit, no checkpoint since this time (ADR 0218). */
  stalledBefore?: Date;
  /** Only late rows: past their estimated delivery at this time, not delivered. */
  lateAt?: Date;
  sortField: 'created_at' | 'last_event_at' | 'delivered_at';
  descending: boolean;
  page: number;
  perPage: number;
}

/** Provider numbers match case-insensitively; rows keep them trimmed and upper-case. */
export const normalizeNumber = (number: string) => number.trim().toUpperCase();

/**
 * Of two rows of one number, the one an update applies to: the active one, else the latest. Picked
 * here rather than by a sort in the query: sorted by `{active, id}`, the planner walked the
 * instance's `{active, id}` queue index (ADR 0727) instead of reading the number's few rows.
 */
function preferApplicable(best: TrackingDocument | null, row: TrackingDocument): TrackingDocument {
  if (!best) return row;
  if (row.active !== best.active) return row.active ? row : best;
  return row.id > best.id ? row : best;
}

/** Row-level reads and writes of intake, status updates and the trackings list. */
export class TrackingRows extends TenantScopedRepository<TrackingDocument> {
  constructor(private readonly connection: Connection) {
    super(trackingModel(connection));
  }

  /** One row by id, among the rows of these instances (the current one and its history). */
  ofInstances(
    tenantId: string,
    instanceIds: number[],
    id: number,
  ): Promise<TrackingDocument | null> {
    return this.findOne(tenantId, { id, integration_instance_id: { $in: instanceIds } });
  }

  /** The trackable's active rows of one instance (normally zero or one). */
  activeForTrackable(
    tenantId: string,
    instanceId: number,
    trackableType: string,
    trackableId: number,
  ): Promise<TrackingDocument[]> {
    return this.findMany(tenantId, {
      integration_instance_id: instanceId,
      trackable_type: trackableType,
      trackable_id: trackableId,
      active: true,
    });
  }

  /** Inserts an active row; null when the number already has one (another replica, another record). */
  async insertActive(row: NewTracking, now: Date): Promise<TrackingDocument | null> {
    const id = await nextSequence(this.connection, 'tracking_rows');
    try {
      return await this.insertWithDefaults({
        ...row,
        id,
        active: true,
        created_at: row.created_at ?? now,
        updated_at: now,
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
  }

  /** Stops rows locally (number changed or removed); the stop worker tells the provider. */
  async stop(tenantId: string, ids: number[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.updateMany(
      tenantId,
      { id: { $in: ids }, active: true },
      { $set: { active: false, stopped_at: at, updated_at: at } },
    );
  }

  /** The row a provider update for `number` applies to: the active one, else the latest. */
  async forNumber(
    tenantId: string,
    instanceId: number,
    number: string,
  ): Promise<TrackingDocument | null> {
    const rows = await this.findMany(tenantId, {
      integration_instance_id: instanceId,
      tracking_number: normalizeNumber(number),
    });
    return rows.reduce<TrackingDocument | null>(preferApplicable, null);
  }

  /**
   * `forNumber` for many numbers of one instance in one read: by normalised number, the row an
   * update applies to (the active one, else the latest); numbers with no row are absent.
   */
  async forNumbers(
    tenantId: string,
    instanceId: number,
    numbers: string[],
  ): Promise<Map<string, TrackingDocument>> {
    // Through the driver, scoped to the tenant: mongoose's query building showed in the profile.
    const found = (await this.driverCollection()
      .find(
        this.scope(tenantId, {
          integration_instance_id: instanceId,
          tracking_number: { $in: [...new Set(numbers.map(normalizeNumber))] },
        }) as object,
      )
      .toArray()) as TrackingDocument[];
    const byNumber = new Map<string, TrackingDocument>();
    for (const row of found)
      byNumber.set(
        row.tracking_number,
        preferApplicable(byNumber.get(row.tracking_number) ?? null, row),
      );
    return byNumber;
  }

  byId(tenantId: string, id: number): Promise<TrackingDocument | null> {
    return this.findOne(tenantId, { id });
  }

  /**
   * Writes a status change only when the row is still at the revision it was
   * read at, so two writers never both apply (or both fire side effects).
   */
  async applyIfUnchanged(
    tenantId: string,
    id: number,
    revision: number,
    changes: Record<string, unknown>,
    now: Date,
  ): Promise<boolean> {
    const { modified } = await this.updateOne(
      tenantId,
      { id, revision },
      { $set: { ...changes, updated_at: now }, $inc: { revision: 1 } },
    );
    return modified === 1;
  }

  /** A page of the rows of these instances (an instance and its history, ADR 0215). */
  async list(
    tenantId: string,
    instanceIds: number[],
    query: TrackingListQuery,
  ): Promise<{ rows: TrackingDocument[]; total: number }> {
    const filter: ScopedFilter<TrackingDocument> = {
      integration_instance_id: instanceIds.length === 1 ? instanceIds[0]! : { $in: instanceIds },
    };
    if (query.search) filter.tracking_number = new RegExp(escapeRegex(query.search), 'i');
    if (query.deliveryStatuses.length > 0) filter.delivery_status = { $in: query.deliveryStatuses };
    if (query.carrierCodes.length > 0) filter.carrier_code = { $in: query.carrierCodes };
    if (query.trackableTypes.length > 0) filter.trackable_type = { $in: query.trackableTypes };
    if (query.createdFrom || query.createdBefore)
      filter.created_at = {
        ...(query.createdFrom ? { $gte: query.createdFrom } : {}),
        ...(query.createdBefore ? { $lt: query.createdBefore } : {}),
      };
    const watched: Array<Record<string, unknown>> = [];
    if (query.stalledBefore) watched.push(stalledConditions(query.stalledBefore, 0));
    if (query.lateAt) watched.push(lateConditions(query.lateAt));
    if (watched.length > 0) (filter as Record<string, unknown>).$and = watched;
    const direction = query.descending ? -1 : 1;
    return this.page(tenantId, filter, {
      sort: { [query.sortField]: direction, id: direction },
      page: query.page,
      perPage: query.perPage,
    });
  }
}
