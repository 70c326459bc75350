import { activityEntry, INTEGRATION_INSTANCE_SUBJECT } from '@inventory/events';
import {
  notFound,
  unavailable,
  type Logger,
  type Outbox,
  type OutboxEntry,
} from '@inventory/platform';
import type { WebhookRegistry } from '../clients/webhook-registry.js';
import { instanceDisconnected } from '../events/parcel-events.js';
import type { InstanceHistoryRepository } from '../store/instance-history-repository.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import { StopJobRepository } from '../store/stop-job-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import type { TransitDaysRepository } from '../store/transit-days-repository.js';
import type { TrackingScopes } from './tracking-scopes.js';
import type { WebhookKeys } from './webhook-keys.js';

/**
 * Disconnects: the webhook token leaves the central registry first (so the old
 * URL answers 404 from now on), active rows get stopped_at, the instance is
 * deleted and `disconnected` recorded. Stopping the rows at the provider is
 * left to a background worker (an outbox event plus a stop job holding the
 * encrypted key), so the answer never waits on the provider. History rows stay.
 */
export class DeleteInstance {
  constructor(
    private readonly deps: {
      instances: InstanceRepository;
      trackings: TrackingRepository;
      stopJobs: StopJobRepository;
      registry: WebhookRegistry;
      outbox: Outbox;
      logger: Logger;
      /** Drops the cached key once the instance is gone (ADR 0225). */
      webhookKeys: Pick<WebhookKeys, 'forget'>;
      /** Remembers the instance, so the tenant's next one lists its rows as history (ADR 0215). */
      history: InstanceHistoryRepository;
      /** The instance's kept transit sums, a cache of its rows (ADR 0239). */
      transitDays: Pick<TransitDaysRepository, 'forget'>;
      /** Drops the tenant's tracking scopes: the instance is gone and joins the history (ADR 0240). */
      trackingScopes: Pick<TrackingScopes, 'forgetTenant'>;
    },
  ) {}

  async execute(tenantId: string, id: number, userId?: string): Promise<void> {
    const { instances, trackings, stopJobs, registry, outbox, logger } = this.deps;
    const instance = await instances.find(tenantId, id);
    if (!instance) throw notFound('Parcel-tracking instance not found.');
    try {
      await registry.unregister(instance.webhook_token);
    } catch (error) {
      logger.error(
        { err: error, instance_id: id },
        'webhook token could not be unregistered; disconnect refused',
      );
      throw unavailable(
        'webhook_registry_unavailable',
        'The parcel-tracking instance could not be disconnected; try again shortly.',
      );
    }

    const jobId = StopJobRepository.newId();
    const events: Array<OutboxEntry<unknown>> = [
      activityEntry({
        tenantId,
        event: 'disconnected',
        description: `Parcel tracking "${instance.name}" disconnected`,
        subject: { type: INTEGRATION_INSTANCE_SUBJECT, id },
        causerId: userId,
      }),
    ];
    // The event always goes out; the worker finds no job when nothing was left to stop.
    events.push({
      type: instanceDisconnected,
      event: { tenantId, payload: { integration_instance_id: id, stop_job_id: jobId } },
    });
    await outbox.withEvents(events, async () => {
      const toStop = await trackings.stopActive(tenantId, id, new Date());
      if (toStop.length > 0) {
        await stopJobs.create({
          job_id: jobId,
          tenant_id: tenantId,
          integration_instance_id: id,
          api_key_encrypted: instance.api_key_encrypted,
          retired_keys: (instance.retired_keys ?? []).map(({ key_ref, api_key_encrypted }) => ({
            key_ref,
            api_key_encrypted,
          })),
          numbers: toStop,
        });
      }
      // Before the delete: a retry after a failure in between finds the instance again.
      await this.deps.history.remember(tenantId, id, new Date());
      await instances.delete(tenantId, id);
    });
    this.deps.webhookKeys.forget(tenantId, id);
    this.deps.trackingScopes.forgetTenant(tenantId);
    // A cache: were it left behind, it would cost a document and nothing else.
    await this.deps.transitDays
      .forget(tenantId, id)
      .catch((error: unknown) =>
        logger.warn({ err: error, instance_id: id }, 'kept transit sums not deleted'),
      );
  }
}
