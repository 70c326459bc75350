import type { Logger } from '@inventory/platform';
import type { DeliveryStore } from '../store/delivery-store.js';
import type { DeliveryDocument } from '../store/delivery.js';

export interface DeliveryWorkerOptions {
  pollMs: number;
  concurrency: number;
  leaseMs: number;
  /** The longest one attempt takes (the HTTP timeout): a lease must outlast it. */
  attemptTimeoutMs: number;
}

/** Lease left beyond the attempt timeout for a queued leased delivery to be attempted. */
const LEASE_MARGIN_MS = 1_000;

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
  /** Places promised to deliveries a fan-out is storing already leased to this replica. */
  private reserved = 0;
  /** Deliveries stored leased to this replica, waiting for a slot. */
  private leased: DeliveryDocument[] = [];
  private lastScheduleLook = 0;
  /** Fan-outs waiting for room (`room()`), woken as attempts finish. */
  private roomWaiters: Array<() => void> = [];

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
   * Promises up to `wanted` places to deliveries about to be stored already leased to this
   * replica (ADR 0406): they need no due query and no claim. Room is what is free in flight plus
   * a queue as long again, so a fan-out batch larger than the free slots still skips the claim.
   * Returns how many it promised.
   */
  reserve(wanted: number): number {
    if (!this.running) return 0;
    const promised = Math.max(0, Math.min(this.free(), wanted));
    this.reserved += promised;
    return promised;
  }

  /**
   * Resolves, with the places free, once at least half the room `reserve` gives from is free, or
   * after `maxWaitMs` with whatever is free. Fan-out waits here before taking the next batch of
   * events, so a burst stays in JetStream (durable) instead of overflowing into the schedule,
   * whose due query and claim cost three round trips per batch (ADR 0407). Bounded, so events
   * held in the consumer never outlive their ack wait; past it they overflow as before.
   */
  async room(maxWaitMs: number): Promise<number> {
    if (this.running && this.free() < this.options.concurrency)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, maxWaitMs);
        const waiters = this.roomWaiters;
        function done() {
          clearTimeout(timer);
          const index = waiters.indexOf(done);
          if (index >= 0) waiters.splice(index, 1);
          resolve();
        }
        waiters.push(done);
      });
    return Math.max(0, this.free());
  }

  private free(): number {
    return 2 * this.options.concurrency - this.inFlight.size - this.leased.length - this.reserved;
  }

  private notifyRoom(): void {
    if (this.roomWaiters.length === 0 || this.free() < this.options.concurrency) return;
    for (const done of this.roomWaiters.splice(0)) done();
  }

  /** Queues deliveries stored leased to this replica, and frees the `promised` places. */
  runLeased(leased: DeliveryDocument[], promised: number): void {
    this.reserved -= promised;
    this.leased.push(...leased);
    if (leased.length > 0) this.wake();
    this.notifyRoom();
  }

  /** How long a lease holds other replicas off a delivery. */
  get leaseMs(): number {
    return this.options.leaseMs;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    for (const done of this.roomWaiters.splice(0)) done();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    // Queued deliveries were never attempted: give their leases back, so another replica (or
    // this one restarted) takes them now instead of when the leases expire.
    const queued = this.leased.splice(0);
    if (queued.length > 0)
      await this.deliveries
        .releaseLeasesAcrossTenants(queued)
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, 'queued leases not released; they expire instead'),
        );
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
    let room = this.options.concurrency - this.inFlight.size;
    if (room <= 0) return 0;
    let started = 0;
    if (this.leased.length > 0) {
      // Only with enough lease left for a whole attempt; the others are dropped from memory and
      // come back through the schedule once their lease expires (at-least-once either way).
      const usableUntil = Date.now() + this.options.attemptTimeoutMs + LEASE_MARGIN_MS;
      const taken = this.leased
        .splice(0, room)
        .filter((delivery) => delivery.lease_until.getTime() > usableUntil);
      if (taken.length > 0) started += await this.track(taken);
      room -= taken.length;
      // The schedule (retries, other replicas' leftovers) still gets a look every poll interval.
      if (room <= 0 || Date.now() - this.lastScheduleLook < this.options.pollMs) return started;
    }
    this.lastScheduleLook = Date.now();
    // Claims for the free slots and for the queue too: a backlog then costs a third of the
    // claims (each is three round trips), and the queue's leases are checked before use.
    const queueRoom = Math.max(0, this.options.concurrency - this.leased.length - this.reserved);
    const ids = await this.deliveries.dueIdsAcrossTenants(new Date(), room + queueRoom);
    if (!this.running) return started;
    const claimed = await this.deliveries.claimAcrossTenants(ids, new Date(), this.options.leaseMs);
    if (claimed.length === 0) return started;
    const startNow = claimed.slice(0, room);
    this.leased.push(...claimed.slice(room));
    return started + (await this.track(startNow));
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
          this.notifyRoom();
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
