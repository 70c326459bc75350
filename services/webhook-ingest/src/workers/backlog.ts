import type { Logger } from '@inventory/platform';
import type { WebhookEventRepository } from '../store/webhook-event-repository.js';

export interface BacklogOptions {
  inbox: Pick<WebhookEventRepository, 'waitingCountAcrossTenants'>;
  logger: Logger;
  /** Rows waiting for their result at which ingest refuses new pushes (ADR 0729). */
  limit: number;
  /** How often the waiting rows are counted. */
  checkMs: number;
}

/**
 * The bound on the rows waiting for the processing job (ADR 0729). Pushes that arrive faster
 * than the job finishes them for long would grow the log without end; past the bound, ingest
 * answers 503 and the provider retries later, so nothing is lost and the wait stays bounded.
 * Counted every `checkMs` in the background, never on a push: a push only reads the last count.
 */
export class Backlog {
  private waiting = 0;
  private timer?: NodeJS.Timeout;
  private counting?: Promise<void>;
  private refusing = false;

  constructor(private readonly options: BacklogOptions) {}

  /** Rows waiting at the last count, at most `limit`: the count stops at the bound. */
  get size(): number {
    return this.waiting;
  }

  get limit(): number {
    return this.options.limit;
  }

  /** Whether the last count reached the bound. */
  full(): boolean {
    return this.waiting >= this.options.limit;
  }

  async start(): Promise<void> {
    await this.count();
    this.timer = setInterval(() => {
      this.counting ??= this.count().finally(() => (this.counting = undefined));
    }, this.options.checkMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.counting;
  }

  /** Counts now (the timer's tick). */
  async count(): Promise<void> {
    const { inbox, limit, logger } = this.options;
    try {
      this.waiting = await inbox.waitingCountAcrossTenants(limit);
    } catch (error) {
      // The last count stands: ingest needs MongoDB too, and answers 503 itself while it is gone.
      logger.warn({ err: error }, 'webhook backlog not counted; the last count stands');
      return;
    }
    const full = this.full();
    if (full !== this.refusing) {
      this.refusing = full;
      if (full)
        logger.warn(
          { limit },
          'webhook backlog full: new pushes are refused (503) until the job catches up',
        );
      else logger.info({ limit }, 'webhook backlog below its bound again: pushes accepted');
    }
  }
}
