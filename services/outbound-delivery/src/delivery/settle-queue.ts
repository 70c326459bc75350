import type { DeliveryStore, Settle } from '../store/delivery-store.js';

/**
 * Settles deliveries by group commit: the settles that arrive while one bulk write is in flight
 * go together in the next, so a busy replica pays one MongoDB round trip for many attempts and
 * an idle one still writes each settle at once. Each caller waits for its own settle to be
 * durable, so the order of writes within one delivery's attempt does not change (ADR 0406).
 */
export class SettleQueue {
  private waiting: Array<{ settle: Settle; done: (error?: unknown) => void }> = [];
  private writing = false;

  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly maxBatch = 256,
  ) {}

  settle(
    deliveryId: string,
    changes: Settle['changes'],
    attempt?: Settle['attempt'],
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({
        settle: { deliveryId, changes, attempt },
        done: (error) => (error === undefined ? resolve() : reject(error)),
      });
      if (!this.writing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        await this.deliveries.settleMany(batch.map((entry) => entry.settle));
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.done(error ?? new Error('settle failed'));
      }
    }
    this.writing = false;
  }
}
