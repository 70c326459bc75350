import { Schema, type Connection, type Model } from 'mongoose';
import type { ChannelScopeSettings } from '../domain/channel-scope.js';
import type { RetiredKey } from '../domain/key-ring.js';
import { DEFAULT_FORECAST_ALERT_DAYS, type ForecastAlertState } from '../domain/quota-forecast.js';
import type { AutoTrackSettings, SideEffectSettings } from '../domain/instance-settings.js';
import type { ShipmentWatchSettings } from '../domain/shipment-watch.js';

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
  /** Stalled and late shipments: thresholds and alert switches; absent is the defaults (ADR 0218). */
  shipment_watch?: ShipmentWatchSettings;
  /** Forecast days left under which an alert fires; 0 = off (ADR 0235). Absent on older rows. */
  quota_forecast_alert_days?: number;
  /** The forecast alert's state: `fired` until days left rise to the setting again. */
  quota_forecast_alert_state?: ForecastAlertState;
  /** Forecast alerts raised so far: part of each alert's key, as for the quota alerts. */
  quota_forecast_alerts_raised?: number;
  /** Registrations that re-used the provider's existing one (ADR 0236). */
  quota_units_saved?: number;
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
    shipment_watch: { type: Schema.Types.Mixed },
    quota_forecast_alert_days: { type: Number, default: DEFAULT_FORECAST_ALERT_DAYS },
    quota_forecast_alert_state: { type: String, default: 'armed' },
    quota_forecast_alerts_raised: { type: Number, default: 0 },
    quota_units_saved: { type: Number, default: 0 },
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

export function instanceModel(connection: Connection): Model<InstanceDocument> {
  return connection.model<InstanceDocument>('Instance', schema);
}
