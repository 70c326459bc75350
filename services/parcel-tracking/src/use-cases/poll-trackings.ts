import { emptyLease, type Logger, type Outbox, type SecretBox } from '@inventory/platform';
import { updateFromTrackInfo } from '../domain/track-info.js';
import { MAX_BATCH, type ProviderClient } from '../provider/client.js';
import type { CheckpointRepository } from '../store/checkpoint-repository.js';
import type { InstanceDocument } from '../store/instance.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import { applyProviderUpdate } from './apply-provider-update.js';
import type { WorkerOptions } from './register-pending.js';

/**
 * Refreshes active registered rows that have not been polled for
 * `staleAfterMs` with `gettrackinfo`, 40 per call within the pacer, and runs
 * each answer through the status machine webhooks use. Skips instances whose
 * automatic sync is off. A failed call leaves the rows due for the next pass.
 */
export class PollTrackings {
  constructor(
    private readonly deps: {
      instances: InstanceRepository;
      trackings: TrackingRepository;
      checkpoints: CheckpointRepository;
      provider: ProviderClient;
      secrets: SecretBox;
      outbox: Outbox;
      logger: Logger;
      options: Pick<WorkerOptions, 'owner' | 'leaseMs' | 'now'> & {
        staleAfterMs: number;
      };
    },
  ) {}

  async runOnce(): Promise<number> {
    let polled = 0;
    for (const instance of await this.deps.instances.listAcrossTenants()) {
      if (!instance.is_automatic_sync_enabled) continue;
      polled += await this.pollInstance(instance);
    }
    return polled;
  }

  private async pollInstance(instance: InstanceDocument): Promise<number> {
    const { trackings, provider, secrets, logger } = this.deps;
    const apiKey = secrets.decrypt(instance.api_key_encrypted);
    const tenantId = instance.tenant_id;
    let polled = 0;
    // A polled row leaves the queue (ADR 0730): each claim takes the next due rows.
    for (;;) {
      const now = this.deps.options.now?.() ?? new Date();
      const current = await this.deps.instances.find(tenantId, instance.id);
      if (!current?.is_automatic_sync_enabled) return polled;
      const batch = await trackings.claim('poll', {
        tenantId,
        instanceId: instance.id,
        owner: this.deps.options.owner,
        now,
        leaseMs: this.deps.options.leaseMs,
        limit: MAX_BATCH,
        staleBefore: new Date(now.getTime() - this.deps.options.staleAfterMs),
      });
      if (batch.length === 0) return polled;
      let answers;
      try {
        answers = await provider.getTrackInfo(
          apiKey,
          batch.map((row) => ({
            number: row.tracking_number,
            ...(row.carrier_code === null ? {} : { carrier: row.carrier_code }),
          })),
        );
      } catch (error) {
        logger.warn({ err: error, instance_id: instance.id }, 'polling batch failed; will retry');
        await trackings.release(tenantId, this.deps.options.owner, batch, {}, now);
        return polled;
      }
      const byNumber = new Map(answers.accepted.map((item) => [item.number.toUpperCase(), item]));
      for (const row of batch) {
        const answer = byNumber.get(row.tracking_number);
        const polledAt = { last_polled_at: now, ...emptyLease() };
        if (!answer) {
          await trackings.release(
            tenantId,
            this.deps.options.owner,
            [row],
            { last_polled_at: now },
            now,
          );
          continue;
        }
        const update = updateFromTrackInfo('TRACKING_UPDATED', answer.carrier, answer.track_info);
        await applyProviderUpdate(this.deps, current, row, update, {
          now,
          extra: polledAt,
        });
        polled++;
      }
    }
  }
}
