import type { Logger, Outbox, SecretBox } from '@inventory/platform';
import { MAX_BATCH, type ProviderClient } from '../provider/client.js';
import { ProviderError, RETRYABLE_REGISTER_CODES } from '../provider/errors.js';
import { carrierName } from '../domain/carriers.js';
import type { InstanceDocument } from '../store/instance.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import { checkQuotaAlert } from './check-quota-alert.js';
import { checkForecastAlert, forecastQuota } from './check-forecast-alert.js';
import { keyFingerprint } from '../provider/key-fingerprint.js';

export interface WorkerOptions {
  /** This replica's worker id (lease owner). */
  owner: string;
  leaseMs: number;
  /** First retry delay after a transient failure; doubles per attempt up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  now?: () => Date;
}

/**
 * Registers pending rows with the provider, at most 40 per call (paced by the
 * client's shared pacer), for every instance whose automatic sync is on (the
 * kill switch). Accepted and "already registered" rows get registered_at and
 * the carrier; rejected rows keep the provider's message; a failed call puts
 * the batch back with an exponential back-off. Each batch is followed by a
 * quota read for the alert state machine.
 */
export class RegisterPending {
  constructor(
    private readonly deps: {
      instances: InstanceRepository;
      trackings: TrackingRepository;
      provider: ProviderClient;
      secrets: SecretBox;
      outbox: Outbox;
      logger: Logger;
      options: WorkerOptions;
    },
  ) {}

  /** One pass over every instance; resolves with the number of rows sent. */
  async runOnce(): Promise<number> {
    let sent = 0;
    for (const instance of await this.deps.instances.listAcrossTenants()) {
      if (!instance.is_automatic_sync_enabled) continue;
      sent += await this.registerInstance(instance);
    }
    return sent;
  }

  private async registerInstance(instance: InstanceDocument): Promise<number> {
    const { trackings, provider, secrets, logger } = this.deps;
    const { owner, leaseMs } = this.deps.options;
    const apiKey = secrets.decrypt(instance.api_key_encrypted);
    const keyRef = keyFingerprint(apiKey);
    let sent = 0;
    // Each batch walks the queue on from the last row claimed (ADR 0727).
    let afterId: number | undefined;
    for (;;) {
      const now = this.deps.options.now?.() ?? new Date();
      // Re-read between batches: the kill switch stops the work at once.
      const current = await this.deps.instances.find(instance.tenant_id, instance.id);
      if (!current?.is_automatic_sync_enabled) return sent;
      const batch = await trackings.claim('register', {
        tenantId: instance.tenant_id,
        instanceId: instance.id,
        owner,
        now,
        leaseMs,
        limit: MAX_BATCH,
        afterId,
      });
      if (batch.length === 0) return sent;
      afterId = batch[batch.length - 1]!.id;
      const tenantId = instance.tenant_id;
      const byNumber = new Map(batch.map((row) => [row.tracking_number, row]));
      try {
        const result = await provider.register(
          apiKey,
          batch.map((row) => ({
            number: row.tracking_number,
            ...(row.carrier_code === null ? {} : { carrier: row.carrier_code }),
          })),
        );
        sent += batch.length;
        for (const item of result.accepted) {
          const row = byNumber.get(item.number.toUpperCase());
          if (!row) continue;
          const carrier = item.carrier ?? row.carrier_code;
          await trackings.release(
            tenantId,
            owner,
            [row],
            {
              registered_at: now,
              carrier_code: carrier,
              carrier_name: row.carrier_name ?? carrierName(carrier),
              registration_error: null,
              registration_failed_at: null,
              registered_key_ref: keyRef,
            },
            now,
          );
        }
        for (const item of result.rejected) {
          const row = byNumber.get(item.number.toUpperCase());
          if (!row) continue;
          // A rejection that passes with time keeps the row pending and queued, after a back-off;
          // any other ends its registration (ADR 0212). Both show in registration_errors.
          const retry = RETRYABLE_REGISTER_CODES.has(item.code)
            ? this.retryLater([row], now)
            : { registration_given_up_at: now };
          await trackings.release(
            tenantId,
            owner,
            [row],
            { registration_error: item.message, registration_failed_at: now, ...retry },
            now,
          );
        }
      } catch (error) {
        const retry = this.retryLater(batch, now);
        const attempts = retry.registration_attempts;
        const delay = retry.next_attempt_at.getTime() - now.getTime();
        logger.warn(
          {
            err: error instanceof ProviderError ? error.message : error,
            instance_id: instance.id,
            rows: batch.length,
            attempts,
            retry_in_ms: delay,
          },
          'registration batch failed; will retry',
        );
        await trackings.release(tenantId, owner, batch, retry, now);
        return sent;
      }
      await this.readQuota(current, apiKey);
    }
  }

  /** The next attempt of rows that failed: exponential back-off from the most tried of them. */
  private retryLater(
    rows: Array<{ registration_attempts?: number }>,
    now: Date,
  ): { registration_attempts: number; next_attempt_at: Date } {
    const attempts = Math.max(...rows.map((row) => row.registration_attempts ?? 0)) + 1;
    const delay = Math.min(
      this.deps.options.maxBackoffMs,
      this.deps.options.backoffMs * 2 ** (attempts - 1),
    );
    return { registration_attempts: attempts, next_attempt_at: new Date(now.getTime() + delay) };
  }

  private async readQuota(instance: InstanceDocument, apiKey: string): Promise<void> {
    try {
      const quota = await this.deps.provider.getQuota(apiKey);
      await checkQuotaAlert(this.deps, instance, quota);
      const now = this.deps.options.now?.() ?? new Date();
      const forecast = await forecastQuota(this.deps.trackings, instance, quota, now);
      await checkForecastAlert(this.deps, instance, forecast, true);
    } catch (error) {
      this.deps.logger.warn(
        { err: error, instance_id: instance.id },
        'quota read after registration failed',
      );
    }
  }
}
