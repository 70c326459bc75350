import type { Logger } from 'pino';

export interface StallWatchOptions {
  /** How often a ping is sent while none is outstanding. */
  pingEveryMs?: number;
  /** An outstanding ping older than this means the peer is stalled. */
  stallMs?: number;
  logger?: Logger;
  /** Called on each change, e.g. to set a gauge. */
  onChange?: (stalled: boolean) => void;
}

/** What a caller reads: whether to fail calls fast, and when to fail those in flight. */
export interface StallHealth {
  stalled(): boolean;
  /** Calls `listener` once the peer stalls; answers the function that stops listening. */
  onStall(listener: () => void): () => void;
}

/**
 * `start()`'s result, or `refusal()` at once when the peer is stalled now (then `start` is not
 * called) or stalls before that result comes (then `onStall` runs, e.g. to abort the work, and
 * the late result is dropped): the one rule for a call, and for one message of a stream.
 */
export function unlessStalled<T>(
  health: StallHealth | undefined,
  refusal: () => Error,
  start: () => Promise<T>,
  onStall?: () => void,
): Promise<T> {
  if (!health) return start();
  if (health.stalled()) return Promise.reject(refusal());
  return new Promise<T>((resolve, reject) => {
    // Listening only while the peer answers; the listener runs later, never during this call.
    const stopListening = health.onStall(() => {
      onStall?.();
      reject(refusal());
    });
    start().then(resolve, reject).finally(stopListening);
  });
}

/**
 * Whether a peer (a database, a service) answers, from a ping every `pingEveryMs`. A frozen
 * process (SIGSTOP, a stop-the-world pause: the socket stays open, nothing answers) answers
 * neither the pings nor real work, which would otherwise wait for the caller's deadline: once a
 * ping has waited `stallMs` (or failed, when `failureStalls`), the peer is stalled until a ping
 * is answered, and callers fail at once (ADRs 0743, 0744).
 */
export class StallWatch implements StallHealth {
  private stalledSince: number | null = null;
  private pingStartedAt: number | null = null;
  private lastTickAt: number | null = null;
  private lastProgressAt = 0;
  private readonly listeners = new Set<() => void>();
  private timer?: NodeJS.Timeout;
  private readonly pingEveryMs: number;
  private readonly stallMs: number;

  /**
   * @param peer named in the log lines ("MongoDB", a service's name)
   * @param ping resolves when answered; a rejection counts as a stall only with `failureStalls`
   *   (a refused connection already fails calls fast by itself)
   */
  constructor(
    private readonly peer: string,
    private readonly ping: () => Promise<unknown>,
    private readonly options: StallWatchOptions & { failureStalls: boolean },
  ) {
    this.pingEveryMs = options.pingEveryMs ?? 100;
    this.stallMs = options.stallMs ?? 500;
  }

  start(): this {
    this.timer ??= setInterval(() => this.tick(), this.pingEveryMs);
    this.timer.unref();
    return this;
  }

  stalled(): boolean {
    return this.stalledSince !== null;
  }

  onStall(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * The peer answered real work (a call's reply): it is alive, however late its ping answer, so
   * an outstanding ping sent before this is not judged (a busy peer, not a frozen one).
   */
  noteProgress(): void {
    this.lastProgressAt = Date.now();
    if (this.stalledSince !== null) this.answered();
  }

  private tick(): void {
    const now = Date.now();
    // A tick this late means this process was starved (a long task, a loaded machine): an
    // answer may be waiting unread in the socket, so the ping's age says nothing this time.
    const starved = this.lastTickAt !== null && now - this.lastTickAt > this.stallMs / 2;
    this.lastTickAt = now;
    if (this.pingStartedAt !== null) {
      const startedAt = this.pingStartedAt;
      if (starved || now - startedAt < this.stallMs || this.lastProgressAt >= startedAt) return;
      // Judged after this turn's I/O, so an answer already received is read first.
      setImmediate(() => {
        if (this.pingStartedAt === startedAt && this.lastProgressAt < startedAt)
          this.stall(`no answer to a ping for ${Date.now() - startedAt} ms`);
      });
      return;
    }
    this.pingStartedAt = now;
    this.ping()
      .then(
        () => this.answered(),
        (error: unknown) => {
          if (this.options.failureStalls) this.stall(`ping failed: ${(error as Error).message}`);
          else this.answered();
        },
      )
      .finally(() => {
        this.pingStartedAt = null;
      });
  }

  private stall(why: string): void {
    if (this.stalledSince !== null) return;
    this.stalledSince = Date.now();
    this.options.logger?.warn(
      { peer: this.peer, why },
      `${this.peer} is not answering: calls fail fast until it does`,
    );
    this.options.onChange?.(true);
    for (const listener of [...this.listeners]) listener();
  }

  private answered(): void {
    if (this.stalledSince === null) return;
    this.options.logger?.info(
      { peer: this.peer, stalled_ms: Date.now() - this.stalledSince },
      `${this.peer} answers again`,
    );
    this.stalledSince = null;
    this.options.onChange?.(false);
  }
}
