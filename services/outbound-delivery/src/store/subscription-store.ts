import { Schema, type Connection, type Model } from 'mongoose';
import { nextSequence, tenantFilter } from '@inventory/platform';

/** One signing secret, encrypted at rest; a rotated-out one keeps signing until `expires_at`. */
export interface StoredSecret {
  encrypted: string;
  created_at: Date;
  expires_at: Date | null;
}

export interface SubscriptionDocument {
  id: number;
  tenant_id: string;
  url: string;
  events: string[];
  description: string | null;
  is_active: boolean;
  /** Why the platform switched it off: `gone` (HTTP 410) or `consecutive_failures`. */
  deactivated_reason: string | null;
  consecutive_failures: number;
  /** Newest first; the first is the current secret. */
  secrets: StoredSecret[];
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<SubscriptionDocument>(
  {
    id: { type: Number, required: true },
    tenant_id: { type: String, required: true },
    url: { type: String, required: true },
    events: { type: [String], required: true },
    description: { type: String, default: null },
    is_active: { type: Boolean, required: true },
    deactivated_reason: { type: String, default: null },
    consecutive_failures: { type: Number, required: true },
    secrets: { type: Schema.Types.Mixed, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'subscriptions', minimize: false },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ tenant_id: 1, events: 1, is_active: 1 });

export type NewSubscription = Pick<
  SubscriptionDocument,
  'tenant_id' | 'url' | 'events' | 'description' | 'secrets'
>;

export class SubscriptionStore {
  private readonly model: Model<SubscriptionDocument>;

  constructor(private readonly connection: Connection) {
    this.model = connection.model<SubscriptionDocument>('Subscription', schema);
  }

  async create(input: NewSubscription): Promise<SubscriptionDocument> {
    const now = new Date();
    const doc: SubscriptionDocument = {
      ...input,
      id: await nextSequence(this.connection, 'subscriptions'),
      is_active: true,
      deactivated_reason: null,
      consecutive_failures: 0,
      created_at: now,
      updated_at: now,
    };
    await this.model.create(doc);
    return doc;
  }

  async find(tenantId: string, id: number): Promise<SubscriptionDocument | null> {
    return this.model
      .findOne(tenantFilter<SubscriptionDocument>(tenantId, { id }))
      .lean<SubscriptionDocument>();
  }

  async page(
    tenantId: string,
    page: number,
    perPage: number,
  ): Promise<{ rows: SubscriptionDocument[]; total: number }> {
    const filter = tenantFilter<SubscriptionDocument>(tenantId);
    const [rows, total] = await Promise.all([
      this.model
        .find(filter)
        .sort({ id: 1 })
        .skip((page - 1) * perPage)
        .limit(perPage)
        .lean<SubscriptionDocument[]>(),
      this.model.countDocuments(filter),
    ]);
    return { rows, total };
  }

  /** Subscriptions by id across tenants: the delivery worker's batch look-up (ids come from deliveries). */
  async byIds(ids: number[]): Promise<SubscriptionDocument[]> {
    if (ids.length === 0) return [];
    return this.model.find({ id: { $in: [...new Set(ids)] } }).lean<SubscriptionDocument[]>();
  }

  /** The tenant's active subscriptions that list `event`. */
  async activeFor(tenantId: string, event: string): Promise<SubscriptionDocument[]> {
    return this.model
      .find(tenantFilter<SubscriptionDocument>(tenantId, { events: event, is_active: true }))
      .lean<SubscriptionDocument[]>();
  }

  async update(
    tenantId: string,
    id: number,
    changes: Partial<SubscriptionDocument>,
  ): Promise<SubscriptionDocument | null> {
    // Nothing to change (an empty PATCH, or only unknown keys): no write, updated_at stays.
    if (Object.keys(changes).length === 0) return this.find(tenantId, id);
    return this.model
      .findOneAndUpdate(
        tenantFilter<SubscriptionDocument>(tenantId, { id }),
        { $set: { ...changes, updated_at: new Date() } },
        { new: true },
      )
      .lean<SubscriptionDocument>();
  }

  async delete(tenantId: string, id: number): Promise<boolean> {
    const result = await this.model.deleteOne(tenantFilter<SubscriptionDocument>(tenantId, { id }));
    return result.deletedCount === 1;
  }

  /** A delivered event: the consecutive failure count starts over. */
  async recordSuccess(tenantId: string, id: number): Promise<void> {
    await this.model.updateOne(
      tenantFilter<SubscriptionDocument>(tenantId, { id, consecutive_failures: { $ne: 0 } }),
      { $set: { consecutive_failures: 0 } },
    );
  }

  /** A delivery whose attempts all failed; returns the count after it. */
  async recordFailure(tenantId: string, id: number): Promise<number> {
    const updated = await this.model
      .findOneAndUpdate(
        tenantFilter<SubscriptionDocument>(tenantId, { id }),
        { $inc: { consecutive_failures: 1 } },
        { new: true },
      )
      .lean<SubscriptionDocument>();
    return updated?.consecutive_failures ?? 0;
  }

  /**
   * Switches an active subscription off; true only for the call that did it, so one
   * deactivation notifies once however many deliveries fail together.
   */
  async deactivate(tenantId: string, id: number, reason: string): Promise<boolean> {
    const result = await this.model.updateOne(
      tenantFilter<SubscriptionDocument>(tenantId, { id, is_active: true }),
      { $set: { is_active: false, deactivated_reason: reason, updated_at: new Date() } },
    );
    return result.modifiedCount === 1;
  }
}
