import type { Logger, SecretBox } from '@inventory/platform';
import { MAX_BATCH, type ProviderClient } from '../provider/client.js';
import type { InstanceDocument, InstanceStore } from '../store/instance-store.js';
import type { TrackingQueue } from '../store/tracking-queue.js';
import type { WorkerOptions } from './register-pending.js';

/** Not registered / already stopped: the provider no longer tracks it, which is the goal. */
const ALREADY_STOPPED = new Set([-18019902, -18019906]);

/**
 * Stops trackings at the provider: delivered rows once `stopDeliveredAfterMs`
 * has passed since delivery (they become stopped here too), and rows stopped
 * here because their number changed or was removed. Skips instances whose
 * automatic sync is off; a failed call leaves the rows due.
 */
export class StopTrackings {
  constructor(
    private readonly instances: InstanceStore,
    private readonly queue: TrackingQueue,
    private readonly provider: ProviderClient,
    private readonly secrets: SecretBox,
    private readonly logger: Logger,
    private readonly options: Pick<WorkerOptions, 'owner' | 'leaseMs' | 'now'> & {
      stopDeliveredAfterMs: number;
    },
  ) {}

  async runOnce(): Promise<number> {
    let stopped = 0;
    for (const instance of await this.instances.listAcrossTenants()) {
      if (!instance.is_automatic_sync_enabled) continue;
      stopped += await this.stopInstance(instance);
    }
    return stopped;
  }

  private async stopInstance(instance: InstanceDocument): Promise<number> {
    const { queue, provider, secrets, logger } = this;
    const { owner, leaseMs } = this.options;
    const tenantId = instance.tenant_id;
    const apiKey = secrets.decrypt(instance.api_key_encrypted);
    let stopped = 0;
    // Each batch walks the queue on from the last row claimed (ADR 0727).
    let afterId: number | undefined;
    for (;;) {
      const now = this.options.now?.() ?? new Date();
      const batch = await queue.claim('stop', {
        tenantId,
        instanceId: instance.id,
        owner,
        now,
        leaseMs,
        limit: MAX_BATCH,
        afterId,
        deliveredBefore: new Date(now.getTime() - this.options.stopDeliveredAfterMs),
      });
      if (batch.length === 0) return stopped;
      afterId = batch[batch.length - 1]!.id;
      try {
        const result = await provider.stopTrack(
          apiKey,
          batch.map((row) => ({
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
        for (const row of batch) {
          const ok = done.has(row.tracking_number);
          const changes: Record<string, unknown> = ok
            ? { provider_stopped_at: now, active: false, stopped_at: row.stopped_at ?? now }
            : { provider_stopped_at: now };
          if (!ok)
            logger.warn(
              { instance_id: instance.id, tracking_id: row.id },
              'provider refused to stop a tracking; not retried',
            );
          await queue.release(tenantId, owner, [row.id], changes, now);
          stopped++;
        }
      } catch (error) {
        logger.warn({ err: error, instance_id: instance.id }, 'stop batch failed; will retry');
        await queue.release(
          tenantId,
          owner,
          batch.map((row) => row.id),
          {},
          now,
        );
        return stopped;
      }
    }
  }
}
