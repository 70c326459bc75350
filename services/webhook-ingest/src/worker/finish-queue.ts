import { randomUUID } from 'node:crypto';
import type { Outbox, OutboxEntry } from '@inventory/platform';
import type { InboxStore, Outcome, WebhookEventDocument } from '../store/inbox-store.js';

interface Finish {
  owner: string;
  row: Pick<WebhookEventDocument, 'id' | 'tenant_id'>;
  outcome: Outcome;
  durationMs: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entries: Array<OutboxEntry<any>>;
  done: (written: boolean | Error) => void;
}

class PartlyWritten extends Error {}

/**
 * Writes results by group commit (ADR 0224): the results that arrive while one write is in
 * flight go together in the next, as one outbox step (their activity entries in one insert) and
 * one bulk write of the rows. A result whose lease was lost is not written; when a batch has
 * such a row, its outbox entries are dropped as a whole and re-written for the rows that were
 * finished, so an entry never names a result another worker wrote.
 */
export class FinishQueue {
  private waiting: Finish[] = [];
  private writing = false;

  constructor(
    private readonly inbox: InboxStore,
    private readonly outbox: Outbox,
    private readonly maxBatch = 128,
  ) {}

  /** Resolves true once written, false when the lease was lost (another worker owns the row). */
  finish(
    owner: string,
    row: Finish['row'],
    outcome: Outcome,
    durationMs: number,
    entries: Finish['entries'],
  ): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({
        owner,
        row,
        outcome,
        durationMs,
        entries,
        done: (written) => (written instanceof Error ? reject(written) : resolve(written)),
      });
      if (!this.writing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        const written = await this.write(batch);
        for (const entry of batch) entry.done(written.has(entry.row.id));
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const entry of batch) entry.done(failure);
      }
    }
    this.writing = false;
  }

  private async write(batch: Finish[]): Promise<Set<number>> {
    const token = randomUUID();
    const ids = batch.map((entry) => entry.row.id);
    try {
      await this.outbox.withEvents(
        batch.flatMap((entry) => entry.entries),
        async () => {
          const written = await this.inbox.finishMany(batch, token);
          if (written !== batch.length) throw new PartlyWritten();
        },
      );
      return new Set(ids);
    } catch (error) {
      if (!(error instanceof PartlyWritten)) throw error;
    }
    const finished = await this.inbox.finishedWith(ids, token);
    await this.outbox.add(
      batch.filter((entry) => finished.has(entry.row.id)).flatMap((entry) => entry.entries),
    );
    return finished;
  }
}
