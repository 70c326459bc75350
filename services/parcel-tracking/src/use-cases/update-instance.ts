import { activityEntry, INTEGRATION_INSTANCE_SUBJECT } from '@inventory/events';
import {
  notFound,
  validationFailed,
  type FieldViolation,
  type Outbox,
  type OutboxEntry,
  type SecretBox,
} from '@inventory/platform';
import { backfillRequest } from '../events/parcel-events.js';
import type { UpdateInstanceRequest } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { mergeChannelScope } from '../domain/channel-scope.js';
import {
  checkShipmentWatch,
  mergeShipmentWatch,
  shipmentWatchOf,
  type ShipmentWatchPatch,
} from '../domain/shipment-watch.js';
import {
  channelScopeInput,
  checkApiKey,
  checkChannelScope,
  checkName,
  checkForecastAlertDays,
  checkThreshold,
  withInputViolations,
  mergeBooleans,
} from '../domain/instance-settings.js';
import type { ProviderClient } from '../provider/client.js';
import type { InstanceDocument } from '../store/instance.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import { providerFailure } from './provider-failure.js';
import type { TrackingScopes } from './tracking-scopes.js';
import type { WebhookKeys } from './webhook-keys.js';
import { DEFAULT_FORECAST_ALERT_DAYS } from '../domain/quota-forecast.js';
import { retire } from '../domain/key-ring.js';
import { keyFingerprint } from '../provider/key-fingerprint.js';

export interface UpdateInstanceInput {
  tenantId: string;
  userId?: string;
  request: UpdateInstanceRequest;
}

/** The proto's patch as the domain's: the carrier list only when it is to be replaced. */
function shipmentWatchPatchOf(
  patch: UpdateInstanceRequest['shipment_watch'],
): ShipmentWatchPatch | undefined {
  if (!patch) return undefined;
  return {
    stalled_after_hours: patch.stalled_after_hours,
    carrier_stalled_after_hours: patch.replace_carrier_stalled_after_hours
      ? patch.carrier_stalled_after_hours
      : undefined,
    stalled_alert: patch.stalled_alert,
    late_alert: patch.late_alert,
  };
}

const isEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Dotted paths of the settings that differ, e.g. `auto_track.rmas`; never values. */
function changedKeys(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  prefix = '',
): string[] {
  const keys: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[key];
    const b = after[key];
    if (isEqual(a, b)) continue;
    const nested =
      prefix === '' &&
      key !== 'auto_track_channels' &&
      a &&
      b &&
      typeof a === 'object' &&
      typeof b === 'object';
    keys.push(
      ...(nested
        ? changedKeys(a as Record<string, unknown>, b as Record<string, unknown>, `${key}.`)
        : [`${prefix}${key}`]),
    );
  }
  return keys;
}

/**
 * Applies only the fields present, nested objects key by key. A new API key is
 * verified with the provider before anything is saved; a new threshold re-arms
 * the quota alert. Records `updated` with the changed keys.
 */
export class UpdateInstance {
  constructor(
    private readonly deps: {
      instances: InstanceRepository;
      provider: ProviderClient;
      secrets: SecretBox;
      outbox: Outbox;
      /** Drops the cached key once a new one is written (ADR 0225). */
      webhookKeys: Pick<WebhookKeys, 'forget'>;
      /** Drops the tenant's tracking scopes once the instance is written (ADR 0240). */
      trackingScopes: Pick<TrackingScopes, 'forgetTenant'>;
    },
  ) {}

  async execute({ tenantId, userId, request }: UpdateInstanceInput): Promise<InstanceDocument> {
    const { instances, provider, secrets, outbox } = this.deps;
    const current = await instances.find(tenantId, request.id);
    if (!current) throw notFound('Parcel-tracking instance not found.');

    const own: FieldViolation[] = [];
    checkName(own, request.name, false);
    checkApiKey(own, request.api_key, false);
    checkThreshold(own, request.quota_alert_threshold);
    checkForecastAlertDays(own, request.quota_forecast_alert_days);
    checkChannelScope(own, request.auto_track_channels);
    const watchPatch = shipmentWatchPatchOf(request.shipment_watch);
    checkShipmentWatch(own, watchPatch);
    const violations = withInputViolations(request.input_violations, own);
    if (violations.length > 0) throw validationFailed(violations);

    const forecastAlertDays = current.quota_forecast_alert_days ?? DEFAULT_FORECAST_ALERT_DAYS;
    const before = {
      name: current.name,
      is_automatic_sync_enabled: current.is_automatic_sync_enabled,
      auto_track: current.auto_track,
      auto_track_channels: current.auto_track_channels,
      side_effects: current.side_effects,
      quota_alert_threshold: current.quota_alert_threshold,
      shipment_watch: shipmentWatchOf(current.shipment_watch),
      quota_forecast_alert_days: forecastAlertDays,
    };
    const after = {
      name: request.name?.trim() ?? current.name,
      is_automatic_sync_enabled:
        request.is_automatic_sync_enabled ?? current.is_automatic_sync_enabled,
      auto_track: mergeBooleans(current.auto_track, request.auto_track),
      auto_track_channels: request.auto_track_channels
        ? mergeChannelScope(
            current.auto_track_channels,
            channelScopeInput(request.auto_track_channels),
          )
        : current.auto_track_channels,
      side_effects: mergeBooleans(current.side_effects, request.side_effects),
      quota_alert_threshold: request.quota_alert_threshold ?? current.quota_alert_threshold,
      shipment_watch: mergeShipmentWatch(shipmentWatchOf(current.shipment_watch), watchPatch),
      quota_forecast_alert_days: request.quota_forecast_alert_days ?? forecastAlertDays,
    };
    const changed = changedKeys(before, after);
    const changes: Partial<InstanceDocument> = { ...after };
    if (after.quota_alert_threshold !== before.quota_alert_threshold)
      changes.quota_alert_state = 'armed';
    // A new forecast setting re-arms its alert, as a new threshold does (ADR 0235).
    if (after.quota_forecast_alert_days !== before.quota_forecast_alert_days)
      changes.quota_forecast_alert_state = 'armed';

    if (request.api_key !== undefined) {
      try {
        await provider.getQuota(request.api_key);
      } catch (error) {
        throw providerFailure(error);
      }
      const previous = secrets.decrypt(current.api_key_encrypted);
      if (previous !== request.api_key) {
        changes.api_key_encrypted = secrets.encrypt(request.api_key);
        // Rows registered under the old key are tracked in its account: stopping them needs it.
        changes.retired_keys = retire(
          current.retired_keys ?? [],
          { key_ref: keyFingerprint(previous), api_key_encrypted: current.api_key_encrypted },
          new Date(),
        );
        changed.push('api_key');
      }
    }

    const events: Array<OutboxEntry<unknown>> =
      changed.length === 0
        ? []
        : [
            activityEntry({
              tenantId,
              event: 'updated',
              description: 'Parcel tracking settings updated',
              subject: { type: INTEGRATION_INSTANCE_SUBJECT, id: current.id },
              causerId: userId,
              properties: { changed_keys: changed },
            }),
          ];
    // Wider auto-track settings may now cover remembered shipments.
    if (changed.some((key) => key.startsWith('auto_track')))
      events.push(backfillRequest(tenantId, current.id, 'settings_changed'));
    // Nothing changed (an empty PATCH, or only unknown keys): no write, updated_at stays.
    if (changed.length === 0) return current;
    const updated = await outbox.withEvents(events, () =>
      instances.update(tenantId, current.id, changes),
    );
    if (changes.api_key_encrypted) this.deps.webhookKeys.forget(tenantId, current.id);
    this.deps.trackingScopes.forgetTenant(tenantId);
    if (!updated) throw notFound('Parcel-tracking instance not found.');
    return updated;
  }
}
