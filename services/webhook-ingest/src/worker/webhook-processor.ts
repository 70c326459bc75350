import { randomUUID } from 'node:crypto';
import { PollWait, type Logger } from '@inventory/platform';
import type { InboxStore } from '../store/inbox-store.js';
import type { WebhookEventDocument } from '../store/webhook-event.js';
import type { ProcessWebhookEvent } from '../use-cases/process-webhook-event.js';

export interface ProcessorOptions {
  inbox: InboxStore;
  process: Pick<ProcessWebhookEvent, 'execute'>;
  logger: Logger;
  /** How long a claim keeps other workers off a row; a crashed worker's rows return after it. */
  leaseMs: number;
  /**
   * How often a worker looks for rows stored by other replicas or due for a retry, while its
   * looks find some.
   */
  pollMs: number;
  /** The longest wait between looks that find nothing (ADR 0715): each empty look doubles it. */
  idlePollMs: number;
  /** Rows processed at once by this replica. */
  concurrency: number;
}

/**
 * The background job: claims the oldest due rows in batches (one claim for up to the free
 * slots), processes each, and claims again once half the slots are free; an idle job sleeps
 * until `wake()` (a local ingest) or the poll interval. Claims are leases in the database, so
 * any number of replicas share the work and a killed one loses nothing. ADR 0221, 0224.
 */
export class WebhookProcessor {
  readonly owner = `${process.pid}-${randomUUID()}`;
  private stopped = false;
  private loop?: Promise<void>;
  private inFlight = new Set<Promise<void>>();
  private wakeUp?: () => void;
  private wakePending = false;
  /** Slots promised to rows being stored already leased to this worker. */
  private reserved = 0;
  /** The last claim filled every free slot, so more rows may be due. */
  private backlog = false;
  private readonly pollWait: PollWait;

  constructor(private readonly options: ProcessorOptions) {
    this.pollWait = new PollWait(options.pollMs, options.idlePollMs);
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Rows are due (one stored without a lease, or a backlog): look now, not at the next poll. */
  wake(): void {
    this.backlog = true;
    this.wakePending = true;
    this.wakeUp?.();
  }

  /**
   * A slot for a row about to be stored already leased to this worker, when one is free
   * (ADR 0224); `runStored` or `release` must follow.
   */
  reserve(): { owner: string; ms: number } | undefined {
    if (this.stopped || !this.loop) return undefined;
    if (this.inFlight.size + this.reserved >= this.options.concurrency) return undefined;
    this.reserved++;
    return { owner: this.owner, ms: this.options.leaseMs };
  }

  /** Processes a row stored leased to this worker, in the slot `reserve` gave. */
  runStored(row: WebhookEventDocument): void {
    this.reserved--;
    this.track(row);
  }

  /** Gives back a slot `reserve` gave (the row was not stored leased). */
  release(): void {
    this.reserved--;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    const { inbox, logger, leaseMs, concurrency } = this.options;
    while (!this.stopped) {
      this.wakePending = false;
      const room = concurrency - this.inFlight.size - this.reserved;
      let claimed: WebhookEventDocument[] = [];
      if (room > 0) {
        try {
          claimed = await inbox.claimDueAcrossTenants(this.owner, leaseMs, room);
          this.pollWait.looked(claimed.length > 0);
        } catch (error) {
          // The database failed: the rows stay due (or leased, and come back when it expires).
          logger.error({ err: error }, 'webhook processing claim failed');
          this.pollWait.busy();
        }
      }
      // Full, or no room to look: more rows may be due (a wake also says so).
      if (room > 0) this.backlog = claimed.length === room;
      for (const row of claimed) this.track(row);
      if (this.stopped) break;
      // Nothing due, or full: wait for a wake (a stored row, half the slots free) or the poll.
      if (claimed.length === 0 || this.inFlight.size >= concurrency)
        await this.idle(this.pollWait.ms);
    }
  }

  private track(row: WebhookEventDocument): void {
    const task: Promise<void> = this.options.process
      .execute(row, this.owner)
      .then(() => undefined)
      .catch((error: unknown) =>
        // The database or the outbox failed: the row's lease brings it back later.
        this.options.logger.error(
          { err: error, webhook_event_id: row.id },
          'webhook processing pass failed',
        ),
      )
      .finally(() => {
        this.inFlight.delete(task);
        // Refill a backlog in batches (half the slots at a time), not one claim per finished
        // row; without one, a finished row needs no claim (new rows come leased, or by poll).
        if (this.backlog && this.inFlight.size <= this.options.concurrency / 2) this.wake();
      });
    this.inFlight.add(task);
  }

  private idle(ms: number): Promise<void> {
    if (this.wakePending || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }
}
