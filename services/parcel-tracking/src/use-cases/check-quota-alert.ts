import { activityEntry, alertEntry } from '@inventory/events';
import type { Outbox, OutboxEntry } from '@inventory/platform';
import { nextQuotaAlert } from '../domain/quota-alert.js';
import type { ProviderQuota } from '../provider/client.js';
import type { InstanceDocument } from '../store/instance.js';
import type { InstanceRepository } from '../store/instance-repository.js';

/**
 * Runs the quota alert state machine after a registration batch or a quota
 * read. The state moves by a conditional write from the state read, so two
 * replicas reading the same quota raise one alert; each alert's key carries the
 * count of alerts raised, so a re-armed crossing raises a new one.
 */
export async function checkQuotaAlert(
  deps: { instances: InstanceRepository; outbox: Outbox },
  instance: InstanceDocument,
  quota: ProviderQuota,
): Promise<'warning' | 'exhausted' | null> {
  const { instances, outbox } = deps;
  const { state, fire } = nextQuotaAlert(
    instance.quota_alert_state,
    quota,
    instance.quota_alert_threshold,
  );
  if (state === instance.quota_alert_state) return null;
  const tenantId = instance.tenant_id;
  const sequence = (instance.quota_alerts_raised ?? 0) + 1;
  const percent = quota.total > 0 ? Math.floor((quota.used / quota.total) * 100) : 0;
  const properties = {
    integration_instance_id: instance.id,
    used: quota.used,
    total: quota.total,
    remaining: quota.remaining,
    threshold: instance.quota_alert_threshold,
  };
  const entries: Array<OutboxEntry<unknown>> = [];
  if (fire.includes('warning'))
    entries.push(
      alertEntry({
        tenantId,
        key: `quota_warning:${instance.id}:${sequence}`,
        kind: 'quota_warning',
        title: 'Parcel-tracking quota running low',
        message: `${percent}% of the parcel-tracking quota is used (${quota.used} of ${quota.total}); the alert threshold is ${instance.quota_alert_threshold}%.`,
        link: '/integrations/parcel-tracking',
        properties,
      }),
    );
  if (fire.includes('exhausted'))
    entries.push(
      alertEntry({
        tenantId,
        key: `quota_exhausted:${instance.id}:${sequence}`,
        kind: 'quota_exhausted',
        priority: 'high',
        title: 'Parcel-tracking quota exhausted',
        message: `The parcel-tracking quota is used up (${quota.used} of ${quota.total}); new shipments cannot be registered.`,
        link: '/integrations/parcel-tracking',
        properties,
      }),
      activityEntry({
        tenantId,
        id: `quota_exceeded:${tenantId}:${instance.id}:${sequence}`,
        event: 'quota_exceeded',
        description: `Parcel-tracking quota exhausted (${quota.used} of ${quota.total})`,
        integrationInstanceId: instance.id,
        properties,
      }),
    );
  const moved = await outbox
    .withEvents(entries, async () => {
      const after = await instances.moveQuotaAlert(
        tenantId,
        instance.id,
        instance.quota_alert_state,
        instance.quota_alert_threshold,
        state,
        fire.length > 0,
      );
      if (!after && entries.length > 0) throw new AlreadyMoved();
      return after !== null;
    })
    .catch((error: unknown) => {
      if (error instanceof AlreadyMoved) return false;
      throw error;
    });
  // The most severe alert raised, for callers that log it.
  return moved ? (fire.at(-1) ?? null) : null;
}

class AlreadyMoved extends Error {}
