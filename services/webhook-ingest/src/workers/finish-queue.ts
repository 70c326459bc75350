import { randomUUID } from 'node:crypto';
import { GroupCommitQueue, type Outbox, type OutboxEntry } from '@inventory/platform';
import type { LeasedRow, WebhookEventRepository } from '../store/webhook-event-repository.js';
import type { Outcome } from '../store/webhook-event.js';

/** One processed row's result, with the activity entries written with it. */
export interface Finish {
  owner: string;
  row: LeasedRow;
  outcome: Outcome;
  durationMs: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entries: Array<OutboxEntry<any>>;
}

/** Answers true once a result is written, false when its lease was lost (another worker owns it). */
export type FinishQueue = GroupCommitQueue<Finish, boolean>;

class PartlyWritten extends Error {}

/**
 * Writes results by group commit (ADR 0224): the results that arrive while one write is in
 * flight go together in the next, as one outbox step (their activity entries in one insert) and
 * one bulk write of the rows. A result whose lease was lost is not written; when a batch has
 * such a row, its outbox entries are dropped as a whole and re-written for the rows that were
 * finished, so an entry never names a result another worker wrote.
 */
export function finishQueue(
  inbox: WebhookEventRepository,
  outbox: Outbox,
  maxBatch = 128,
): FinishQueue {
  return new GroupCommitQueue(
    async (batch: Finish[]) => {
      const written = await writeBatch(inbox, outbox, batch);
      return batch.map((entry) => written.has(entry.row.id));
    },
    maxBatch,
    // The results of one apply batch arrive in one turn: one write (ADR 0746).
    { gatherTurn: true },
  );
}

async function writeBatch(inbox: WebhookEventRepository, outbox: Outbox, batch: Finish[]) {
  const token = randomUUID();
  const ids = batch.map((entry) => entry.row.id);
  try {
    await outbox.withEvents(
      batch.flatMap((entry) => entry.entries),
      async () => {
        const written = await inbox.finishMany(batch, token);
        if (written !== batch.length) throw new PartlyWritten();
      },
    );
    return new Set(ids);
  } catch (error) {
    if (!(error instanceof PartlyWritten)) throw error;
  }
  const finished = await inbox.finishedAcrossTenants(ids, token);
  await outbox.add(
    batch.filter((entry) => finished.has(entry.row.id)).flatMap((entry) => entry.entries),
  );
  return finished;
}
