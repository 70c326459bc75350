import type { Logger, SecretBox } from '@inventory/platform';
import { groupByKey } from '../domain/key-ring.js';
import { MAX_BATCH, type ProviderClient } from '../provider/client.js';
import type { InstanceDocument } from '../store/instance.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import type { TrackingDocument } from '../store/tracking.js';
import type { WorkerOptions } from './register-pending.js';

/** Not registered / already stopped: the provider no longer tracks it, which is the goal. */
const ALREADY_STOPPED = new Set([-18019902, -18019906]);

/** A row the provider no longer tracks: stopped there, and here too. */
const stoppedThere = (row: TrackingDocument, now: Date) => ({
  provider_stopped_at: now,
  active: false,
  stopped_at: row.stopped_at ?? now,
});

/**
 * Stops trackings at the provider: delivered rows once `stopDeliveredAfterMs`
 * has passed since delivery (they become stopped here too), and rows stopped
 * here because their number changed or was removed. Skips instances whose
 * automatic sync is off; a failed call leaves the rows due.
 */
export class StopTrackings {
  constructor(
    private readonly deps: {
      instances: InstanceRepository;
      trackings: TrackingRepository;
      provider: ProviderClient;
      secrets: SecretBox;
      logger: Logger;
      options: Pick<WorkerOptions, 'owner' | 'leaseMs' | 'now'> & {
        stopDeliveredAfterMs: number;
      };
    },
  ) {}

  async runOnce(): Promise<number> {
    let stopped = 0;
    for (const instance of await this.deps.instances.listAcrossTenants()) {
      if (!instance.is_automatic_sync_enabled) continue;
      stopped += await this.stopInstance(instance);
    }
    return stopped;
  }

  private async stopInstance(instance: InstanceDocument): Promise<number> {
    const { trackings, provider, secrets, logger } = this.deps;
    const { owner, leaseMs } = this.deps.options;
    const tenantId = instance.tenant_id;
    const ring = { current: instance.api_key_encrypted, retired: instance.retired_keys ?? [] };
    let stopped = 0;
    // A handled row leaves the queue (ADR 0730): each claim takes the next due rows.
    for (;;) {
      const now = this.deps.options.now?.() ?? new Date();
      const batch = await trackings.claim('stop', {
        tenantId,
        instanceId: instance.id,
        owner,
        now,
        leaseMs,
        limit: MAX_BATCH,
        deliveredBefore: new Date(now.getTime() - this.deps.options.stopDeliveredAfterMs),
      });
      if (batch.length === 0) return stopped;
      // Never registered: the provider does not track it, so there is nothing to stop there.
      const unregistered = batch.filter((row) => row.registered_at === null);
      for (const row of unregistered) {
        await trackings.release(tenantId, owner, [row], stoppedThere(row, now), now);
        stopped++;
      }
      // Each row is stopped with the key that registered it, a rotated-out one too (ADR 0213).
      const byKey = groupByKey(
        ring,
        batch.filter((row) => row.registered_at !== null),
        (row) => row.registered_key_ref,
      );
      let failed = false;
      for (const [encrypted, registered] of byKey) {
        const apiKey = secrets.decrypt(encrypted);
        try {
          const result = await provider.stopTrack(
            apiKey,
            registered.map((row) => ({
              number: row.tracking_number,
              ...(row.carrier_code === null ? {} : { carrier: row.carrier_code }),
            })),
          );
          const done = new Set([
            ...result.accepted.map((item) => item.number.toUpperCase()),
            ...result.rejected
              .filter((item) => ALREADY_STOPPED.has(item.code))
              .map((item) => item.number.toUpperCase()),
          ]);
          for (const row of registered) {
            const ok = done.has(row.tracking_number);
            const changes: Record<string, unknown> = ok
              ? stoppedThere(row, now)
              : { provider_stopped_at: now };
            if (!ok)
              logger.warn(
                { instance_id: instance.id, tracking_id: row.id },
                'provider refused to stop a tracking; not retried',
              );
            await trackings.release(tenantId, owner, [row], changes, now);
            stopped++;
          }
        } catch (error) {
          logger.warn({ err: error, instance_id: instance.id }, 'stop batch failed; will retry');
          await trackings.release(tenantId, owner, registered, {}, now);
          failed = true;
        }
      }
      if (failed) return stopped;
    }
  }
}
