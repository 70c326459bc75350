import { randomUUID } from 'node:crypto';
import type { Logger } from '@inventory/platform';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { DeliveryDocument } from '../store/delivery.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';

export interface HeldDeliveriesOptions {
  /** How long a pause lasts at most (`WEBHOOK_PAUSE_MAX_MS`); then it resumes by itself. */
  pauseMaxMs: number;
  /** How often the sweep looks for pauses run out and resumes left half done. */
  sweepMs: number;
  leaseMs: number;
}

/**
 * Sends a resumed subscription's held deliveries (ADR 0412): one at a time, oldest event first,
 * each through the ordinary attempt (signing, the cap, retries on the schedule), waiting for its
 * first attempt before taking the next. Everything it needs is in MongoDB (the `held` rows and
 * the subscription's `resuming` flag), so a restart loses nothing: the sweep carries on any
 * resume it finds unfinished, and resumes pauses older than the bound.
 */
export class HeldDeliveries {
  private readonly owner = `held-${process.pid}-${randomUUID()}`;
  /** Subscriptions this replica is releasing, by `<tenant>:<id>`. */
  private readonly running = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: DeliveryRepository,
    /** Starts the attempts of a batch; resolves to them in flight (the worker's `start`). */
    private readonly attempt: (batch: DeliveryDocument[]) => Promise<Array<Promise<void>>>,
    private readonly options: HeldDeliveriesOptions,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const sweep = () => {
      void this.sweep()
        .catch((error: unknown) =>
          this.logger.error({ err: error }, 'held deliveries sweep failed'),
        )
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(sweep, this.options.sweepMs);
        });
    };
    sweep();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.running.values()]);
  }

  /** Sends the subscription's held deliveries unless this replica already is. */
  release(tenantId: string, id: number): void {
    const key = `${tenantId}:${id}`;
    if (this.stopped || this.running.has(key)) return;
    const run = this.drain(tenantId, id)
      .catch((error: unknown) =>
        // The rows stay held and the flag set: the next sweep carries on.
        this.logger.error({ err: error, subscription_id: id }, 'releasing held deliveries failed'),
      )
      .finally(() => this.running.delete(key));
    this.running.set(key, run);
  }

  private async sweep(): Promise<void> {
    const overdue = new Date(Date.now() - this.options.pauseMaxMs);
    for (const found of await this.subscriptions.resumableAcrossTenants(overdue)) {
      if (found.paused_at) {
        // The pause ran out: it resumes by itself, so nothing held is ever lost.
        await this.subscriptions.resume(found.tenant_id, found.id);
        this.logger.info({ subscription_id: found.id }, 'pause ran out; resuming');
      }
      this.release(found.tenant_id, found.id);
    }
  }

  private async drain(tenantId: string, id: number): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const subscription = await this.subscriptions.find(tenantId, id);
      // Paused again or deleted: what is left stays held (or was skipped by the delete).
      if (!subscription || subscription.paused_at) return;
      const next = await this.deliveries.takeOldestHeld(
        tenantId,
        id,
        this.owner,
        this.options.leaseMs,
      );
      if (next) {
        // Only the first attempt is awaited; a retry waits on the schedule like any other.
        await Promise.all(await this.attempt([next]));
        continue;
      }
      if (!subscription.resuming) {
        // Held while the last resume was finishing (fan-out read the flag just before): go on.
        if (!(await this.deliveries.hasHeld(tenantId, id))) return;
        await this.subscriptions.markResuming(tenantId, id);
        continue;
      }
      if (!(await this.subscriptions.finishResume(tenantId, id))) return;
      // A delivery held between the last take and the flag's end is sent too.
      if (!(await this.deliveries.hasHeld(tenantId, id))) return;
      await this.subscriptions.markResuming(tenantId, id);
    }
  }
}
