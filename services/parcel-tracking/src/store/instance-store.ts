import { Schema, type Connection, type Model } from 'mongoose';
import { nextSequence, tenantFilter } from '@inventory/platform';
import type { ChannelScopeSettings } from '../domain/channel-scope.js';
import type { AutoTrackSettings, SideEffectSettings } from '../domain/instance-settings.js';

export type QuotaAlertState = 'armed' | 'warned' | 'exhausted';

export interface InstanceDocument {
  id: number;
  tenant_id: string;
  name: string;
  /** AES-256-GCM (see SecretBox); the plaintext key is never stored. */
  api_key_encrypted: string;
  is_automatic_sync_enabled: boolean;
  auto_track: AutoTrackSettings;
  auto_track_channels: ChannelScopeSettings;
  webhook_token: string;
  side_effects: SideEffectSettings;
  quota_alert_threshold: number;
  /** Where the quota alert state machine stands; a threshold change re-arms it. */
  quota_alert_state: QuotaAlertState;
  /** Alerts raised so far: part of each alert's key, so a re-armed crossing alerts again. */
  quota_alerts_raised?: number;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<InstanceDocument>(
  {
    id: { type: Number, required: true },
    tenant_id: { type: String, required: true },
    name: { type: String, required: true },
    api_key_encrypted: { type: String, required: true },
    is_automatic_sync_enabled: { type: Boolean, required: true },
    auto_track: { type: Schema.Types.Mixed, required: true },
    auto_track_channels: { type: Schema.Types.Mixed, required: true },
    webhook_token: { type: String, required: true },
    side_effects: { type: Schema.Types.Mixed, required: true },
    quota_alert_threshold: { type: Number, required: true },
    quota_alert_state: { type: String, required: true },
    quota_alerts_raised: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'instances', minimize: false },
);
// The singleton rule: one instance per tenant, enforced by the database so two
// concurrent creates cannot both win.
schema.index({ tenant_id: 1 }, { unique: true });
schema.index({ id: 1 }, { unique: true });
schema.index({ webhook_token: 1 }, { unique: true });

export type NewInstance = Omit<InstanceDocument, 'id' | 'created_at' | 'updated_at'>;

export class InstanceStore {
  readonly model: Model<InstanceDocument>;

  constructor(private readonly connection: Connection) {
    this.model = connection.model<InstanceDocument>('Instance', schema);
  }

  /** Throws a duplicate-key error when the tenant already has an instance. */
  async create(instance: NewInstance): Promise<InstanceDocument> {
    const now = new Date();
    const doc: InstanceDocument = {
      ...instance,
      id: await nextSequence(this.connection, 'instances'),
      created_at: now,
      updated_at: now,
    };
    await this.model.create(doc);
    return doc;
  }

  async find(tenantId: string, id: number): Promise<InstanceDocument | null> {
    return this.model
      .findOne(tenantFilter<InstanceDocument>(tenantId, { id }))
      .lean<InstanceDocument>();
  }

  /** Whether the tenant has connected its one instance (the singleton rule, before a create). */
  async existsForTenant(tenantId: string): Promise<boolean> {
    return (await this.model.exists(tenantFilter<InstanceDocument>(tenantId))) !== null;
  }

  async findForTenant(tenantId: string): Promise<InstanceDocument | null> {
    return this.model.findOne(tenantFilter<InstanceDocument>(tenantId)).lean<InstanceDocument>();
  }

  /**
   * Moves the quota alert state machine only from the state it was read in, so
   * two replicas reading one quota raise one alert; counts the alerts raised.
   */
  async moveQuotaAlert(
    tenantId: string,
    id: number,
    from: QuotaAlertState,
    threshold: number,
    to: QuotaAlertState,
    raised: boolean,
  ): Promise<InstanceDocument | null> {
    return this.model
      .findOneAndUpdate(
        tenantFilter<InstanceDocument>(tenantId, {
          id,
          quota_alert_state: from,
          quota_alert_threshold: threshold,
        }),
        {
          $set: { quota_alert_state: to },
          ...(raised ? { $inc: { quota_alerts_raised: 1 } } : {}),
        },
        { new: true },
      )
      .lean<InstanceDocument>();
  }

  async update(
    tenantId: string,
    id: number,
    changes: Partial<InstanceDocument>,
  ): Promise<InstanceDocument | null> {
    // Nothing to change (an empty PATCH, or only unknown keys): no write, updated_at stays.
    if (Object.keys(changes).length === 0) return this.find(tenantId, id);
    return this.model
      .findOneAndUpdate(
        tenantFilter<InstanceDocument>(tenantId, { id }),
        { $set: { ...changes, updated_at: new Date() } },
        { new: true },
      )
      .lean<InstanceDocument>();
  }

  async delete(tenantId: string, id: number): Promise<boolean> {
    const result = await this.model.deleteOne(tenantFilter<InstanceDocument>(tenantId, { id }));
    return result.deletedCount === 1;
  }
}

/**
 * The workers' view: every tenant's instance (one per tenant), for the
 * background jobs that sweep all of them. Nothing tenant-facing calls it.
 */
export async function allInstances(store: InstanceStore): Promise<InstanceDocument[]> {
  return store.model.find({}).sort({ id: 1 }).lean<InstanceDocument[]>();
}
