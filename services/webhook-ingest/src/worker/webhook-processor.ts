import { randomUUID } from 'node:crypto';
import type { Logger } from '@inventory/platform';
import type { InboxStore } from '../store/inbox-store.js';
import type { ProcessWebhookEvent } from '../use-cases/process-webhook-event.js';

export interface ProcessorOptions {
  inbox: InboxStore;
  process: ProcessWebhookEvent;
  logger: Logger;
  /** How long a claim keeps other workers off a row; a crashed worker's rows return after it. */
  leaseMs: number;
  /** How often an idle worker looks for rows stored by other replicas or due for a retry. */
  pollMs: number;
  /** Rows processed at once by this replica. */
  concurrency: number;
}

/**
 * The background job: `concurrency` loops that each claim the oldest due row,
 * process it, and claim again; idle loops sleep until `wake()` (a local ingest)
 * or the poll interval. Claims are leases in the database, so any number of
 * replicas share the work and a killed one loses nothing. ADR 0221.
 */
export class WebhookProcessor {
  readonly owner = `${process.pid}-${randomUUID()}`;
  private stopped = false;
  private loops: Array<Promise<void>> = [];
  private sleepers: Array<() => void> = [];

  constructor(private readonly options: ProcessorOptions) {}

  start(): void {
    for (let index = 0; index < this.options.concurrency; index++) this.loops.push(this.loop());
  }

  /** One stored row wakes one idle loop (waking all would send them all to claim one row). */
  wake(): void {
    this.sleepers.shift()?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const resume of this.sleepers.splice(0)) resume();
    await Promise.all(this.loops);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined = undefined;
      const done = () => {
        clearTimeout(timer);
        this.sleepers = this.sleepers.filter((sleeper) => sleeper !== done);
        resolve();
      };
      timer = setTimeout(done, ms);
      this.sleepers.push(done);
    });
  }

  private async loop(): Promise<void> {
    const { inbox, process, logger, leaseMs, pollMs } = this.options;
    while (!this.stopped) {
      try {
        const row = await inbox.claimNext(this.owner, leaseMs);
        if (!row) {
          await this.sleep(pollMs);
          continue;
        }
        await process.execute(row, this.owner);
      } catch (error) {
        // The database or the outbox failed: the row's lease brings it back later.
        logger.error({ err: error }, 'webhook processing pass failed');
        await this.sleep(pollMs);
      }
    }
  }
}
