import { randomUUID } from 'node:crypto';
import { WorkerLoop, type Logger } from '@inventory/platform';
import type { WebhookEventRepository } from '../store/webhook-event-repository.js';
import type { WebhookEventDocument } from '../store/webhook-event.js';
import type { ProcessWebhookEvent } from '../use-cases/process-webhook-event.js';

export interface ProcessorOptions {
  inbox: Pick<WebhookEventRepository, 'claimDueAcrossTenants'>;
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
 * The background job: the platform's worker loop over the inbox's leased queue (ADR 0018). It
 * claims the oldest due rows in batches (one claim for up to the free slots), processes each, and
 * claims again once half the slots are free while a backlog is known; an idle job sleeps until
 * `wake()` (a local ingest) or the poll interval. Claims are leases in the database, so any number
 * of replicas share the work and a killed one loses nothing. ADR 0221, 0224.
 */
export class WebhookProcessor {
  readonly owner = `${process.pid}-${randomUUID()}`;
  private readonly loop: WorkerLoop<WebhookEventDocument>;

  constructor(private readonly options: ProcessorOptions) {
    const { inbox, process: processing, leaseMs } = options;
    this.loop = new WorkerLoop({
      logger: options.logger,
      concurrency: options.concurrency,
      pollMs: options.pollMs,
      idlePollMs: options.idlePollMs,
      // Without a backlog, a finished row needs no claim (new rows come leased, or by poll).
      refill: 'backlog',
      claim: (room) => inbox.claimDueAcrossTenants(this.owner, leaseMs, room),
      start: (rows) => rows.map((row) => processing.execute(row, this.owner)),
      claimFailed: 'webhook processing claim failed',
      runFailed: 'webhook processing pass failed',
      describe: (row) => ({ webhook_event_id: row.id }),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Rows are due (one stored without a lease, or a backlog): look now, not at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  /**
   * A slot for a row about to be stored already leased to this worker, when one is free
   * (ADR 0224); `runStored` or `release` must follow.
   */
  reserve(): { owner: string; ms: number } | undefined {
    return this.loop.reserve() ? { owner: this.owner, ms: this.options.leaseMs } : undefined;
  }

  /** Processes a row stored leased to this worker, in the slot `reserve` gave. */
  runStored(row: WebhookEventDocument): void {
    this.loop.runReserved(row);
  }

  /** Gives back a slot `reserve` gave (the row was not stored leased). */
  release(): void {
    this.loop.unreserve();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
