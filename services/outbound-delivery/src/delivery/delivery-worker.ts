import type { Logger } from '@inventory/platform';
import type { DeliveryDocument, DeliveryStore } from '../store/delivery-store.js';

export interface DeliveryWorkerOptions {
  pollMs: number;
  concurrency: number;
  leaseMs: number;
}

/**
 * Runs due deliveries from the durable schedule in MongoDB. Each one is leased before its
 * attempt, so replicas never attempt the same delivery together, and a replica killed
 * mid-attempt leaves a lease that expires: another (or the restarted) replica then repeats the
 * attempt with the same delivery id (at-least-once).
 */
export class DeliveryWorker {
  private running = false;
  private loop?: Promise<void>;
  private inFlight = new Set<Promise<void>>();
  private wakeUp?: () => void;
  private wakePending = false;
  /** Slots promised to deliveries a fan-out is storing already leased to this replica. */
  private reserved = 0;

  constructor(
    private readonly deliveries: DeliveryStore,
    /** Starts the attempts of a claimed batch; resolves to them in flight. */
    private readonly attempt: (batch: DeliveryDocument[]) => Promise<Array<Promise<void>>>,
    private readonly options: DeliveryWorkerOptions,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** New work was scheduled: look now instead of at the next poll. */
  wake(): void {
    this.wakePending = true;
    this.wakeUp?.();
  }

  /**
   * Promises up to `wanted` slots to deliveries about to be stored already leased to this
   * replica (ADR 0406): they need no due query and no claim. Returns how many it promised.
   */
  reserve(wanted: number): number {
    if (!this.running) return 0;
    const free = this.options.concurrency - this.inFlight.size - this.reserved;
    const promised = Math.max(0, Math.min(free, wanted));
    this.reserved += promised;
    return promised;
  }

  /** Attempts deliveries stored leased to this replica, and frees the `promised` slots. */
  runLeased(leased: DeliveryDocument[], promised: number): void {
    const started = leased.length > 0 ? this.track(leased) : Promise.resolve(0);
    void started
      .catch((error: unknown) =>
        // Their leases stay: whoever claims them once the leases expire attempts them.
        this.logger.error({ err: error }, 'starting leased deliveries failed'),
      )
      .finally(() => {
        this.reserved -= promised;
      });
  }

  /** How long a lease holds other replicas off a delivery. */
  get leaseMs(): number {
    return this.options.leaseMs;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    while (this.running) {
      let started = 0;
      try {
        started = await this.startDue();
      } catch (error) {
        this.logger.error({ err: error }, 'delivery scheduler poll failed');
      }
      if (!this.running) break;
      // Full: wait until half the room is free (a finished attempt wakes us) or the next poll.
      if (started === 0 || this.inFlight.size >= this.options.concurrency) await this.idle();
    }
  }

  private async startDue(): Promise<number> {
    this.wakePending = false;
    const room = this.options.concurrency - this.inFlight.size - this.reserved;
    if (room <= 0) return 0;
    const ids = await this.deliveries.dueIds(new Date(), room);
    if (!this.running) return 0;
    const claimed = await this.deliveries.claim(ids, new Date(), this.options.leaseMs);
    if (claimed.length === 0) return 0;
    return this.track(claimed);
  }

  /** Starts the attempts of leased deliveries and keeps them in flight until they settle. */
  private async track(claimed: DeliveryDocument[]): Promise<number> {
    const attempts = await this.attempt(claimed);
    attempts.forEach((attempt, index) => {
      const delivery = claimed[index]!;
      const task: Promise<void> = attempt
        .catch((error: unknown) =>
          // The lease stays: the attempt is retried by whoever claims it after it expires.
          this.logger.error(
            { err: error, delivery_id: delivery.delivery_id },
            'delivery attempt crashed',
          ),
        )
        .finally(() => {
          this.inFlight.delete(task);
          // Refill in batches (half the room at a time), not one query per finished attempt.
          if (this.inFlight.size <= this.options.concurrency / 2) this.wake();
        });
      this.inFlight.add(task);
    });
    return claimed.length;
  }

  private idle(): Promise<void> {
    if (this.wakePending) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    });
  }
}
