import { randomUUID } from 'node:crypto';
import { WorkerLoop, type Logger } from '@inventory/platform';
import type { DeliveryRepository } from '../store/delivery-repository.js';
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
 * from JetStream, ADR 0408). The platform's worker loop over the store's leased queue (ADR 0018):
 * each delivery is leased before its attempt, so replicas never attempt the same delivery
 * together, and a replica killed mid-attempt leaves a lease that expires: another (or the
 * restarted) replica then repeats the attempt with the same delivery id (at-least-once).
 */
export class DeliveryWorker {
  readonly owner = `${process.pid}-${randomUUID()}`;
  private readonly loop: WorkerLoop<DeliveryDocument>;

  constructor(
    deliveries: Pick<
      DeliveryRepository,
      'dueIdsAcrossTenants' | 'claimAcrossTenants' | 'releaseLeasesAcrossTenants'
    >,
    /** Starts the attempts of a claimed batch; resolves to them in flight. */
    attempt: (batch: DeliveryDocument[]) => Promise<Array<Promise<void>>>,
    options: DeliveryWorkerOptions,
    logger: Logger,
  ) {
    this.loop = new WorkerLoop({
      logger,
      concurrency: options.concurrency,
      pollMs: options.pollMs,
      idlePollMs: options.idlePollMs,
      // Refill in batches (half the room at a time), not one query per finished attempt.
      refill: 'always',
      // Claims for the free slots and for the queue too: a backlog then costs a third of the
      // claims (each is three round trips), and the queue's leases are checked before use.
      hold: {
        // Only with enough lease left for a whole attempt; the others are dropped from memory and
        // come back through the schedule once their lease expires (at-least-once either way).
        usable: (delivery) =>
          delivery.lease_until.getTime() > Date.now() + options.attemptTimeoutMs + LEASE_MARGIN_MS,
        release: (queued) => deliveries.releaseLeasesAcrossTenants(queued),
        releaseFailed: 'queued leases not released; they expire instead',
      },
      claim: async (limit) => {
        const ids = await deliveries.dueIdsAcrossTenants(new Date(), limit);
        if (!this.loop.running) return { items: [] };
        const claimed = await deliveries.claimAcrossTenants(
          ids,
          new Date(),
          options.leaseMs,
          this.owner,
        );
        return { items: claimed, foundWork: ids.length > 0 };
      },
      start: attempt,
      claimFailed: 'delivery scheduler poll failed',
      // The lease stays: the attempt is retried by whoever claims it after it expires.
      runFailed: 'delivery attempt crashed',
      describe: (delivery) => ({ delivery_id: delivery.delivery_id }),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** New work was scheduled: look now instead of at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
