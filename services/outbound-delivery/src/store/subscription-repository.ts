import type { Connection, mongo } from 'mongoose';
import { nextSequence, TenantScopedRepository } from '@inventory/platform';
import type { SubscriptionOwner } from '../domain/subscription-owner.js';
import {
  subscriptionModel,
  type NewSubscription,
  type SubscriptionDocument,
} from './subscription.js';

/**
 * A tenant's webhook subscriptions. Every read and write names the tenant, except the delivery
 * worker's batch look-up, whose deliveries are of every tenant (it says so in its name).
 */
export class SubscriptionRepository extends TenantScopedRepository<SubscriptionDocument> {
  constructor(private readonly connection: Connection) {
    super(subscriptionModel(connection));
  }

  async create(input: NewSubscription): Promise<SubscriptionDocument> {
    const now = new Date();
    const doc: SubscriptionDocument = {
      ...input,
      id: await nextSequence(this.connection, 'subscriptions'),
      is_active: input.is_active ?? true,
      deactivated_reason: null,
      consecutive_failures: 0,
      created_at: now,
      updated_at: now,
    };
    await this.insertOne(doc);
    return doc;
  }

  find(tenantId: string, id: number): Promise<SubscriptionDocument | null> {
    return this.findOne(tenantId, { id });
  }

  listPage(
    tenantId: string,
    page: number,
    perPage: number,
  ): Promise<{ rows: SubscriptionDocument[]; total: number }> {
    return this.page(tenantId, {}, { sort: { id: 1 }, page, perPage });
  }

  /**
   * Subscriptions by id, whatever their tenant: the delivery worker's batch look-up (the ids come
   * from deliveries of many tenants; the caller checks each delivery's tenant against its match).
   */
  async byIdsAcrossTenants(ids: number[]): Promise<SubscriptionDocument[]> {
    if (ids.length === 0) return [];
    return this.acrossTenants()
      .find({ id: { $in: [...new Set(ids)] } })
      .lean<SubscriptionDocument[]>();
  }

  /**
   * The tenant's active subscriptions that list `event`: fan-out's read of every batch, so
   * through the driver (ADR 0745), its filter typed here with nothing for mongoose to cast.
   */
  activeFor(tenantId: string, event: string): Promise<SubscriptionDocument[]> {
    return this.driverCollection()
      .find(
        this.scope(tenantId, {
          events: event,
          is_active: true,
        }) as mongo.Filter<SubscriptionDocument>,
      )
      .toArray() as Promise<SubscriptionDocument[]>;
  }

  async update(
    tenantId: string,
    id: number,
    changes: Partial<SubscriptionDocument>,
  ): Promise<SubscriptionDocument | null> {
    // Nothing to change (an empty PATCH, or only unknown keys): no write, updated_at stays.
    if (Object.keys(changes).length === 0) return this.find(tenantId, id);
    return this.findOneAndUpdate(
      tenantId,
      { id },
      { $set: { ...changes, updated_at: new Date() } },
    );
  }

  /**
   * A user's grants changed (identity.user.changed): every subscription the user owns takes them,
   * unless it already holds grants at least as recent (a subscription set up after the change).
   */
  async updateOwnerGrants(
    tenantId: string,
    userId: number,
    grants: Pick<SubscriptionOwner, 'is_owner' | 'permissions' | 'as_of'>,
  ): Promise<number> {
    const { modified } = await this.updateMany(
      tenantId,
      { 'owner.user_id': userId, 'owner.as_of': { $lt: grants.as_of } },
      {
        $set: {
          'owner.is_owner': grants.is_owner,
          'owner.permissions': grants.permissions,
          'owner.as_of': grants.as_of,
        },
      },
    );
    return modified;
  }

  async delete(tenantId: string, id: number): Promise<boolean> {
    return (await this.deleteOne(tenantId, { id })) === 1;
  }

  /** A delivered event: the consecutive failure count starts over. */
  async recordSuccess(tenantId: string, id: number): Promise<void> {
    await this.updateOne(
      tenantId,
      { id, consecutive_failures: { $ne: 0 } },
      { $set: { consecutive_failures: 0 } },
    );
  }

  /** A delivery whose attempts all failed; returns the count after it. */
  async recordFailure(tenantId: string, id: number): Promise<number> {
    const updated = await this.findOneAndUpdate(
      tenantId,
      { id },
      { $inc: { consecutive_failures: 1 } },
    );
    return updated?.consecutive_failures ?? 0;
  }

  /** Pauses it (again, during a resume); an already paused one keeps its `paused_at`. */
  pause(tenantId: string, id: number): Promise<SubscriptionDocument | null> {
    const now = new Date();
    return this.findOneAndUpdate(
      tenantId,
      { id, paused_at: null },
      { $set: { paused_at: now, updated_at: now } },
    );
  }

  /** Ends a pause: the held deliveries are to be sent (`resuming` until they all are). */
  resume(tenantId: string, id: number): Promise<SubscriptionDocument | null> {
    const now = new Date();
    return this.findOneAndUpdate(
      tenantId,
      { id, paused_at: { $ne: null } },
      { $set: { paused_at: null, resuming: true, updated_at: now } },
    );
  }

  /** Marks a subscription resuming (held deliveries found without a resume under way). */
  async markResuming(tenantId: string, id: number): Promise<void> {
    await this.updateOne(tenantId, { id, paused_at: null }, { $set: { resuming: true } });
  }

  /** The resume is over; false when it was paused again meanwhile. */
  async finishResume(tenantId: string, id: number): Promise<boolean> {
    const { modified } = await this.updateOne(
      tenantId,
      { id, resuming: true, paused_at: null },
      { $set: { resuming: false } },
    );
    return modified === 1;
  }

  /**
   * Subscriptions of every tenant with a resume to carry on (a replica stopped mid-way) or a
   * pause older than `pausedBefore` (it runs out): the sweep's work.
   */
  async resumableAcrossTenants(
    pausedBefore: Date,
  ): Promise<Array<Pick<SubscriptionDocument, 'tenant_id' | 'id' | 'paused_at'>>> {
    return this.acrossTenants()
      .find(
        { $or: [{ resuming: true }, { paused_at: { $type: 'date', $lte: pausedBefore } }] },
        { tenant_id: 1, id: 1, paused_at: 1, _id: 0 },
      )
      .lean<Array<Pick<SubscriptionDocument, 'tenant_id' | 'id' | 'paused_at'>>>();
  }

  /**
   * Switches an active subscription off; true only for the call that did it, so one
   * deactivation notifies once however many deliveries fail together.
   */
  async deactivate(tenantId: string, id: number, reason: string): Promise<boolean> {
    const { modified } = await this.updateOne(
      tenantId,
      { id, is_active: true },
      { $set: { is_active: false, deactivated_reason: reason, updated_at: new Date() } },
    );
    return modified === 1;
  }
}
