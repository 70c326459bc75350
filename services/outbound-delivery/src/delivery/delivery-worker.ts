import { PollWait, type Logger } from '@inventory/platform';
import type { DeliveryStore } from '../store/delivery-store.js';
import type { DeliveryDocument } from '../store/delivery.js';

export interface DeliveryWorkerOptions {
  /** How often the schedule is looked at while the looks find deliveries due. */
  pollMs: number;
  /** The longest wait between looks that find nothing (ADR 0715): each empty look doubles it. */
  idlePollMs: number;
  concurrency: number;
  leaseMs: number;
  /** The longest one attempt takes (the HTTP timeout): a lease must outlast it. */
  attemptTimeoutMs: number;
}

/** Lease left beyond the attempt timeout for a queued leased delivery to be attempted. */
const LEASE_MARGIN_MS = 1_000;

/**
 * Runs due deliveries from the durable schedule in MongoDB: retries, pings, redeliveries, and
 * the rows a crashed replica left leased (a catalog event's first attempt is fan-out's, made
 * from JetStream, ADR 0408). Each one is leased before its attempt, so replicas never attempt
 * the same delivery together, and a replica killed mid-attempt leaves a lease that expires:
 * another (or the restarted) replica then repeats the attempt with the same delivery id
 * (at-least-once).
 */
export class DeliveryWorker {
  private running = false;
  private loop?: Promise<void>;
  private inFlight = new Set<Promise<void>>();
  private wakeUp?: () => void;
  private wakePending = false;
  /** Deliveries claimed beyond the free slots, waiting for one (their leases held). */
  private leased: DeliveryDocument[] = [];
  private lastScheduleLook = 0;
  private readonly pollWait: PollWait;

  constructor(
    private readonly deliveries: DeliveryStore,
    /** Starts the attempts of a claimed batch; resolves to them in flight. */
    private readonly attempt: (batch: DeliveryDocument[]) => Promise<Array<Promise<void>>>,
    private readonly options: DeliveryWorkerOptions,
    private readonly logger: Logger,
  ) {
    this.pollWait = new PollWait(options.pollMs, options.idlePollMs);
  }

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

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
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
        this.pollWait.busy();
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
    const queueRoom = Math.max(0, this.options.concurrency - this.leased.length);
    const ids = await this.deliveries.dueIdsAcrossTenants(new Date(), room + queueRoom);
    if (!this.running) return started;
    const claimed = await this.deliveries.claimAcrossTenants(ids, new Date(), this.options.leaseMs);
    this.pollWait.looked(ids.length > 0);
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
      const timer = setTimeout(done, this.pollWait.ms);
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
