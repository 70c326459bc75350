import type { Logger, Outbox, SecretBox } from '@inventory/platform';
import {
  MAX_BATCH,
  type BatchResult,
  type ProviderClient,
  type ProviderQuota,
} from '../provider/client.js';
import { ProviderError, RETRYABLE_REGISTER_CODES } from '../provider/errors.js';
import { carrierName } from '../domain/carriers.js';
import type { InstanceDocument } from '../store/instance.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import { checkQuotaAlert } from './check-quota-alert.js';
import { checkForecastAlert, forecastQuota } from './check-forecast-alert.js';
import { keyFingerprint } from '../provider/key-fingerprint.js';
import type { TrackingDocument } from '../store/tracking.js';
import { planReuse, trackAgain, type Registration } from './registration-reuse.js';

export interface WorkerOptions {
  /** This replica's worker id (lease owner). */
  owner: string;
  leaseMs: number;
  /** First retry delay after a transient failure; doubles per attempt up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  now?: () => Date;
}

/** A pass's latest quota read, and the instance as it was then read. */
interface LastQuotaRead {
  quota: ProviderQuota | null;
  instance: InstanceDocument;
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
    const read: LastQuotaRead = { quota: null, instance };
    const sent = await this.registerBatches(instance, read);
    // Once a pass, from its last quota read: the forecast reads the instance's registrations.
    if (read.quota) await this.checkForecast(read.instance, read.quota);
    return sent;
  }

  private async registerBatches(instance: InstanceDocument, read: LastQuotaRead): Promise<number> {
    const { trackings, secrets, logger } = this.deps;
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
      try {
        // A number this key registered before re-uses that registration (ADR 0236).
        const plan = await planReuse(
          this.deps,
          { tenantId, instanceId: instance.id, apiKey, keyRef, now },
          batch,
        );
        const registered =
          plan.register.length > 0
            ? await this.registerRows(apiKey, plan.register)
            : { registrations: [], rejected: [] };
        sent += batch.length;
        let saved = 0;
        for (const { row, carrier, reused } of [...plan.reused, ...registered.registrations]) {
          const written = await trackings.release(
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
              registration_reused_at: reused ? now : null,
            },
            now,
          );
          if (reused) saved += written;
        }
        await this.deps.instances.addUnitsSaved(tenantId, instance.id, saved);
        // Their old row is being stopped right now: after it, a retrack takes the number over.
        if (plan.later.length > 0)
          await trackings.release(
            tenantId,
            owner,
            plan.later,
            { next_attempt_at: new Date(now.getTime() + this.deps.options.backoffMs) },
            now,
          );
        const byNumber = new Map(plan.register.map((row) => [row.tracking_number, row]));
        for (const item of registered.rejected) {
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
      await this.readQuota(current, apiKey, read);
    }
  }

  /**
   * Registers rows (a unit each). A number the account already holds is tracked again for free
   * when it can be (`trackAgain`); one that cannot was deleted there and is registered once more.
   */
  private async registerRows(
    apiKey: string,
    rows: TrackingDocument[],
    retrackHeld = true,
  ): Promise<{ registrations: Registration[]; rejected: BatchResult['rejected'] }> {
    const { provider } = this.deps;
    const byNumber = new Map(rows.map((row) => [row.tracking_number, row]));
    const result = await provider.register(
      apiKey,
      rows.map((row) => ({
        number: row.tracking_number,
        ...(row.carrier_code === null ? {} : { carrier: row.carrier_code }),
      })),
    );
    const registrations: Registration[] = [];
    const held: TrackingDocument[] = [];
    for (const item of result.accepted) {
      const row = byNumber.get(item.number.toUpperCase());
      if (!row) continue;
      if (item.already_registered && retrackHeld) held.push(row);
      else
        registrations.push({
          row,
          carrier: item.carrier ?? row.carrier_code,
          reused: item.already_registered === true,
        });
    }
    const rejected = [...result.rejected];
    if (held.length > 0) {
      const again = await trackAgain(
        provider,
        apiKey,
        held.map((row) => ({
          number: row.tracking_number,
          ...(row.carrier_code === null ? {} : { carrier: row.carrier_code }),
        })),
      );
      const tracked = held.filter((row) => again.tracking.has(row.tracking_number));
      const deleted = held.filter((row) => !again.tracking.has(row.tracking_number));
      registrations.push(
        ...tracked.map((row) => ({ row, carrier: row.carrier_code, reused: true })),
      );
      if (deleted.length > 0) {
        const once = await this.registerRows(apiKey, deleted, false);
        registrations.push(...once.registrations);
        rejected.push(...once.rejected);
      }
    }
    return { registrations, rejected };
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

  private async readQuota(
    instance: InstanceDocument,
    apiKey: string,
    read: LastQuotaRead,
  ): Promise<void> {
    try {
      const quota = await this.deps.provider.getQuota(apiKey);
      Object.assign(read, { quota, instance });
      await checkQuotaAlert(this.deps, instance, quota);
    } catch (error) {
      this.deps.logger.warn(
        { err: error, instance_id: instance.id },
        'quota read after registration failed',
      );
    }
  }

  /** The forecast alert (ADR 0235) from the pass's last quota read; a failure is only logged. */
  private async checkForecast(instance: InstanceDocument, quota: ProviderQuota): Promise<void> {
    try {
      const now = this.deps.options.now?.() ?? new Date();
      const forecast = await forecastQuota(this.deps.trackings, instance, quota, now);
      await checkForecastAlert(this.deps, instance, forecast, true);
    } catch (error) {
      this.deps.logger.warn(
        { err: error, instance_id: instance.id },
        'quota forecast check after registration failed',
      );
    }
  }
}
