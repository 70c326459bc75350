import { DEFAULT_FORECAST_ALERT_DAYS } from '../domain/quota-forecast.js';
import { activityEntry, INTEGRATION_INSTANCE_SUBJECT } from '@inventory/events';
import { backfillRequest } from '../events/parcel-events.js';
import {
  alreadyExists,
  isDuplicateKeyError,
  unavailable,
  validationFailed,
  type FieldViolation,
  type Logger,
  type Outbox,
  type SecretBox,
} from '@inventory/platform';
import type {
  AutoTrackChannelsPatch,
  AutoTrackPatch,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import {
  AUTO_TRACK_KEYS,
  channelScopeInput,
  checkApiKey,
  checkChannelScope,
  checkName,
  DEFAULT_QUOTA_ALERT_THRESHOLD,
  fillBooleans,
  withInputViolations,
  SIDE_EFFECT_KEYS,
} from '../domain/instance-settings.js';
import { mintWebhookToken, PROVIDER_SEGMENT } from '../domain/webhook-token.js';
import type { WebhookRegistry } from '../clients/webhook-registry.js';
import type { ProviderClient } from '../provider/client.js';
import type { InstanceDocument } from '../store/instance.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import { providerFailure } from './provider-failure.js';

export interface CreateInstanceInput {
  tenantId: string;
  userId?: string;
  name?: string;
  apiKey?: string;
  autoTrack?: AutoTrackPatch;
  autoTrackChannels?: AutoTrackChannelsPatch;
  /** Type errors found upstream; reported with this use case's own violations. */
  inputViolations?: readonly FieldViolation[];
}

const ALREADY_CONNECTED = 'A parcel-tracking instance already exists for this account.';

/**
 * Connects the tenant: validates, verifies the key with the provider, stores the
 * instance (the unique tenant index makes it a singleton even under concurrent
 * creates), registers its webhook token centrally and records `connected`.
 */
export class CreateInstance {
  constructor(
    private readonly deps: {
      instances: InstanceRepository;
      provider: ProviderClient;
      secrets: SecretBox;
      registry: WebhookRegistry;
      outbox: Outbox;
      logger: Logger;
    },
  ) {}

  async execute(input: CreateInstanceInput): Promise<InstanceDocument> {
    const own: FieldViolation[] = [];
    checkName(own, input.name, true);
    checkApiKey(own, input.apiKey, true);
    checkChannelScope(own, input.autoTrackChannels);
    const violations = withInputViolations(input.inputViolations ?? [], own);
    if (violations.length > 0) throw validationFailed(violations);

    const { instances, provider, secrets, registry, outbox, logger } = this.deps;
    if (await instances.existsForTenant(input.tenantId)) throw alreadyExists(ALREADY_CONNECTED);
    try {
      await provider.getQuota(input.apiKey!);
    } catch (error) {
      throw providerFailure(error);
    }

    const scope = channelScopeInput(input.autoTrackChannels ?? { channels: {} });
    const token = mintWebhookToken();
    const name = input.name!.trim();
    let created: InstanceDocument | undefined;
    const connected = (instance: InstanceDocument) =>
      activityEntry({
        tenantId: input.tenantId,
        event: 'connected',
        description: `Parcel tracking connected as "${instance.name}"`,
        subject: { type: INTEGRATION_INSTANCE_SUBJECT, id: instance.id },
        causerId: input.userId,
        properties: { name: instance.name },
      });
    try {
      created = await instances.create({
        tenant_id: input.tenantId,
        name,
        api_key_encrypted: secrets.encrypt(input.apiKey!),
        is_automatic_sync_enabled: true,
        auto_track: fillBooleans(AUTO_TRACK_KEYS, input.autoTrack),
        auto_track_channels: { default: scope.default ?? 'all', channels: scope.channels },
        webhook_token: token,
        side_effects: fillBooleans(SIDE_EFFECT_KEYS, undefined),
        quota_alert_threshold: DEFAULT_QUOTA_ALERT_THRESHOLD,
        quota_alert_state: 'armed',
        quota_forecast_alert_days: DEFAULT_FORECAST_ALERT_DAYS,
        quota_forecast_alert_state: 'armed',
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw alreadyExists(ALREADY_CONNECTED);
      throw error;
    }
    const instance = created;
    try {
      const backfill = backfillRequest(input.tenantId, instance.id, 'connected');
      await outbox.withEvents([connected(instance), backfill], async () => {
        await registry.register(token, PROVIDER_SEGMENT, instance.id);
      });
    } catch (error) {
      // Without a registered token the webhook URL would not work: undo the create.
      logger.error(
        { err: error, instance_id: instance.id },
        'webhook token registration failed; instance creation rolled back',
      );
      await instances.delete(input.tenantId, instance.id);
      throw unavailable(
        'webhook_registry_unavailable',
        'The parcel-tracking instance could not be created; try again shortly.',
      );
    }
    return instance;
  }
}
