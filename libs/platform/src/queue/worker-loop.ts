import type { Logger } from '../logging/index.js';
import { PollWait } from '../polling/index.js';

export interface WorkerLoopOptions<T> {
  logger: Logger;
  /** Items run at once by this replica. */
  concurrency: number;
  /** How often the loop looks for work nobody told it of, while its looks find some. */
  pollMs: number;
  /** The longest wait between looks that find nothing (ADR 0715): each empty look doubles it. */
  idlePollMs: number;
  /**
   * Takes up to `room` items (leases them). With `foundWork`, the claim says itself whether it
   * looked and found work (due rows all taken by another replica were found), or, when undefined,
   * that it did not look at the queue at all (items it held already); the poll wait follows.
   */
  claim(room: number): Promise<T[] | { items: T[]; foundWork?: boolean }>;
  /** Starts the items of one claim; answers each one's run, in flight until it settles. */
  start(items: T[]): Array<Promise<unknown>> | Promise<Array<Promise<unknown>>>;
  /**
   * When a finished item refills the slots (half of them free): `always`, or only while a backlog
   * is known (`backlog`: the last claim filled every free slot, or a `wake`).
   */
  refill: 'always' | 'backlog';
  /**
   * A claim may take more than the free slots, up to the concurrency again: the surplus is held in
   * memory, its leases kept, and started as slots free, so a backlog costs fewer claims. `usable`
   * says whether a held item's lease still covers its run (the others are dropped, and come back
   * when their lease expires); `release` gives back the leases of those still held at `stop`.
   * While items are held, the queue itself is looked at once per poll interval at most.
   */
  hold?: {
    usable(item: T): boolean;
    release(items: T[]): Promise<void>;
    /** Logged when `release` fails: the leases then expire instead. */
    releaseFailed: string;
  };
  /** The first look waits a poll interval too (a worker that has nothing to do at start). */
  firstLookAfterPoll?: boolean;
  /** Logged when a claim fails; the loop looks again after the busy interval. */
  claimFailed: string;
  /** Logged with an item's fields (`describe`) when its run fails; its lease brings it back later. */
  runFailed: string;
  describe(item: T): Record<string, unknown>;
}

/**
 * The one worker loop over a leased queue (ADR 0018): claims due items in batches (one claim for
 * up to the free slots), runs each, and claims again once half the slots are free; an idle loop
 * sleeps until `wake()` or the poll interval, which doubles after each empty look (ADR 0715).
 * `reserve` gives a slot to an item its caller leases itself (stored already leased, ADR 0224).
 * `stop` waits for the look and the runs in flight.
 */
export class WorkerLoop<T> {
  private stopped = false;
  private loop?: Promise<void>;
  private readonly inFlight = new Set<Promise<void>>();
  private wakeUp?: () => void;
  private wakePending = false;
  /** Slots promised to items leased by their caller (`reserve`). */
  private reserved = 0;
  /** The last claim filled every free slot, so more items may be due. */
  private backlog = false;
  /** Items claimed beyond the free slots, waiting for one (their leases held; `hold`). */
  private held: T[] = [];
  private lastLook = 0;
  private readonly pollWait: PollWait;

  constructor(private readonly options: WorkerLoopOptions<T>) {
    this.pollWait = new PollWait(options.pollMs, options.idlePollMs);
  }

  get running(): boolean {
    return this.loop !== undefined && !this.stopped;
  }

  /** Slots free for a claim now. */
  get room(): number {
    return this.options.concurrency - this.inFlight.size - this.reserved;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Items are due (one stored unleased, a backlog): look now, not at the next poll. */
  wake(): void {
    this.backlog = true;
    this.wakePending = true;
    this.wakeUp?.();
  }

  /** A slot for an item its caller leases itself, when one is free; `runReserved` or `unreserve` follows. */
  reserve(): boolean {
    if (!this.running || this.room <= 0) return false;
    this.reserved++;
    return true;
  }

  /** Runs an item in the slot `reserve` gave. */
  runReserved(item: T): void {
    this.reserved--;
    const runs = this.options.start([item]);
    if (Array.isArray(runs)) this.track([item], runs);
    else
      void runs.then(
        (started) => this.track([item], started),
        (error: unknown) =>
          this.options.logger.error(
            { err: error, ...this.options.describe(item) },
            this.options.runFailed,
          ),
      );
  }

  /** Gives back a slot `reserve` gave (its item was not leased). */
  unreserve(): void {
    this.reserved--;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    // Held items were never run: give their leases back, so another replica (or this one
    // restarted) takes them now instead of when the leases expire.
    const held = this.held.splice(0);
    const { hold, logger } = this.options;
    if (hold && held.length > 0)
      await hold
        .release(held)
        .catch((error: unknown) => logger.warn({ err: error }, hold.releaseFailed));
  }

  private async run(): Promise<void> {
    const { logger, concurrency } = this.options;
    if (this.options.firstLookAfterPoll) await this.idle();
    while (!this.stopped) {
      this.wakePending = false;
      const room = this.room;
      let started = 0;
      if (room > 0) {
        try {
          started = await this.startDue(room);
        } catch (error) {
          // The database failed: the items stay due (or leased, and come back when it expires).
          logger.error({ err: error }, this.options.claimFailed);
          this.pollWait.busy();
          started = 0;
        }
        // Full: more items may be due.
        this.backlog = started === room;
      }
      if (this.stopped) break;
      // Nothing due, or full: wait for a wake (half the slots free) or the poll.
      if (started === 0 || this.inFlight.size >= concurrency) await this.idle();
    }
  }

  /** Starts held items, then claims for the slots still free (and for the hold); answers how many started. */
  private async startDue(room: number): Promise<number> {
    const { hold, concurrency, pollMs } = this.options;
    let started = 0;
    if (hold && this.held.length > 0) {
      const taken = this.held.splice(0, room).filter((item) => hold.usable(item));
      if (taken.length > 0) started += await this.startAll(taken);
      room -= taken.length;
      // The queue (retries, other replicas' leftovers) still gets a look every poll interval.
      if (room <= 0 || Date.now() - this.lastLook < pollMs) return started;
    }
    this.lastLook = Date.now();
    const extra = hold ? Math.max(0, concurrency - this.held.length) : 0;
    const answer = await this.options.claim(room + extra);
    const claimed = Array.isArray(answer) ? answer : answer.items;
    const foundWork = Array.isArray(answer) ? claimed.length > 0 : answer.foundWork;
    if (foundWork !== undefined) this.pollWait.looked(foundWork);
    this.held.push(...claimed.slice(room));
    const startNow = claimed.slice(0, room);
    return started + (startNow.length > 0 ? await this.startAll(startNow) : 0);
  }

  private async startAll(items: T[]): Promise<number> {
    this.track(items, await this.options.start(items));
    return items.length;
  }

  private track(items: T[], runs: Array<Promise<unknown>>): void {
    runs.forEach((started, index) => {
      const item = items[index]!;
      const task: Promise<void> = started
        .then(() => undefined)
        .catch((error: unknown) =>
          // The database or the item's work failed: its lease brings it back later.
          this.options.logger.error(
            { err: error, ...this.options.describe(item) },
            this.options.runFailed,
          ),
        )
        .finally(() => {
          this.inFlight.delete(task);
          // Refill in batches (half the slots at a time), not one claim per finished item.
          const refill = this.options.refill === 'always' || this.backlog;
          if (refill && this.inFlight.size <= this.options.concurrency / 2) this.wake();
        });
      this.inFlight.add(task);
    });
  }

  private idle(): Promise<void> {
    if (this.wakePending || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.pollWait.ms);
      this.wakeUp = done;
    });
  }
}
