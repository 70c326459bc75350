import { Schema, type Connection } from 'mongoose';
import { nextSequence, TenantScopedRepository } from '@inventory/platform';
import type { ChannelScopeSettings } from '../domain/channel-scope.js';
import type { RetiredKey } from '../domain/key-ring.js';
import type { AutoTrackSettings, SideEffectSettings } from '../domain/instance-settings.js';

export type QuotaAlertState = 'armed' | 'warned' | 'exhausted';

export interface InstanceDocument {
  id: number;
  tenant_id: string;
  name: string;
  /** AES-256-GCM (see SecretBox); the plaintext key is never stored. */
  api_key_encrypted: string;
  /** Keys replaced by rotations, kept so rows they registered can still be stopped (ADR 0213). */
  retired_keys?: RetiredKey[];
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
    retired_keys: {
      type: [{ _id: false, key_ref: String, api_key_encrypted: String, retired_at: Date }],
      default: [],
    },
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

export class InstanceStore extends TenantScopedRepository<InstanceDocument> {
  constructor(private readonly connection: Connection) {
    super(connection.model<InstanceDocument>('Instance', schema));
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
    await this.insertOne(doc);
    return doc;
  }

  find(tenantId: string, id: number): Promise<InstanceDocument | null> {
    return this.findOne(tenantId, { id });
  }

  /** `find` through the driver, scoped to the tenant: a read on every webhook batch (ADR 0229). */
  findDirect(tenantId: string, id: number): Promise<InstanceDocument | null> {
    return this.driverCollection().findOne(
      this.scope(tenantId, { id }) as object,
    ) as Promise<InstanceDocument | null>;
  }

  /** Whether the tenant has connected its one instance (the singleton rule, before a create). */
  existsForTenant(tenantId: string): Promise<boolean> {
    return this.exists(tenantId, {});
  }

  findForTenant(tenantId: string): Promise<InstanceDocument | null> {
    return this.findOne(tenantId, {});
  }

  /**
   * Every tenant's instance (one per tenant), for the background workers that sweep all of them;
   * nothing tenant-facing calls it.
   */
  listAcrossTenants(): Promise<InstanceDocument[]> {
    return this.acrossTenants().find({}).sort({ id: 1 }).lean<InstanceDocument[]>();
  }

  /**
   * Moves the quota alert state machine only from the state it was read in, so
   * two replicas reading one quota raise one alert; counts the alerts raised.
   */
  moveQuotaAlert(
    tenantId: string,
    id: number,
    from: QuotaAlertState,
    threshold: number,
    to: QuotaAlertState,
    raised: boolean,
  ): Promise<InstanceDocument | null> {
    return this.findOneAndUpdate(
      tenantId,
      { id, quota_alert_state: from, quota_alert_threshold: threshold },
      {
        $set: { quota_alert_state: to },
        ...(raised ? { $inc: { quota_alerts_raised: 1 } } : {}),
      },
    );
  }

  async update(
    tenantId: string,
    id: number,
    changes: Partial<InstanceDocument>,
  ): Promise<InstanceDocument | null> {
    // Nothing to change (an empty PATCH, or only unknown keys): no write, updated_at stays.
    if (Object.keys(changes).length === 0) return this.find(tenantId, id);
    return this.findOneAndUpdate(
      tenantId,
      { id },
      { $set: { ...changes, updated_at: new Date() } },
    );
  }

  async delete(tenantId: string, id: number): Promise<boolean> {
    return (await this.deleteOne(tenantId, { id })) === 1;
  }
}
