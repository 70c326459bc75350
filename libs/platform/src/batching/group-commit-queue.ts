/**
 * The end of the event loop's current turn: every I/O callback of this poll phase and every
 * promise reaction they queued has run. Taken at load, so a test's fake timers do not hold it.
 */
const realSetImmediate = globalThis.setImmediate;
const turnEnd = () => new Promise<void>((resolve) => realSetImmediate(resolve));

export interface GroupCommitOptions {
  /**
   * Each batch starts at the end of the event loop's turn instead of at once (ADR 0746): the
   * items that arrive together (one batch RPC's items fanned out, the pushes read in one poll
   * phase) go together, where at once the first of them goes alone and the rest in a second
   * batch. No timer: the wait is one turn of the loop.
   */
  gatherTurn?: boolean;
}

/**
 * Writes items by group commit: the items that arrive while one batch is being written go
 * together in the next, so a busy process pays one round trip for many and an idle one still
 * writes each item at once (no timer, no added latency; with `gatherTurn`, at the end of the loop's
 * turn). Batches are written one at a time, in
 * arrival order, so two items of one caller never overtake each other. Each caller waits for its
 * own item: `add` resolves with the item's answer once its batch is durable, and rejects with the
 * batch's error when the write fails (the whole batch failed; the caller decides what a retry is).
 * ADR 0224 (webhook results), ADR 0406 (delivery settles), ADR 0746 (`gatherTurn`).
 */
export class GroupCommitQueue<T, R = void> {
  private waiting: Array<{ item: T; settle: (answer: R | Error) => void }> = [];
  private writing?: Promise<void>;
  private stopped = false;

  /**
   * @param write writes one batch and answers each item, in the batch's order (`true`/`false`
   *   for "written or lost", say); a queue whose items need no answer (`R` void) returns nothing.
   * @param maxBatch most items in one write; a longer queue goes in several, in order.
   */
  constructor(
    private readonly write: (batch: T[]) => Promise<R[] | (R extends void ? void : never)>,
    private readonly maxBatch = 256,
    private readonly options: GroupCommitOptions = {},
  ) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1)
      throw new Error('maxBatch is a positive integer');
  }

  /** Items queued or being written. */
  get pending(): number {
    return this.waiting.length + (this.writing ? 1 : 0);
  }

  add(item: T): Promise<R> {
    if (this.stopped) return Promise.reject(new Error('the group commit queue is stopped'));
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({
        item,
        settle: (answer) => (answer instanceof Error ? reject(answer) : resolve(answer)),
      });
      this.writing ??= this.drain();
    });
  }

  /** Refuses new items and resolves once every item already added is written (or failed). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.writing;
  }

  private async drain(): Promise<void> {
    if (this.options.gatherTurn) await turnEnd();
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      let answers: R[] | Error;
      try {
        const written = await this.write(batch.map((entry) => entry.item));
        answers = Array.isArray(written) ? written : batch.map(() => undefined as R);
        if (answers.length !== batch.length)
          answers = new Error(`a batch of ${batch.length} got ${answers.length} answers`);
      } catch (error) {
        answers = error instanceof Error ? error : new Error(String(error ?? 'write failed'));
      }
      batch.forEach((entry, index) =>
        entry.settle(answers instanceof Error ? answers : answers[index]!),
      );
      if (this.options.gatherTurn && this.waiting.length > 0) await turnEnd();
    }
    this.writing = undefined;
  }
}
