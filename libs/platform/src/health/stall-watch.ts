import type { Logger } from 'pino';

export interface StallWatchOptions {
  /** How often a ping is sent while the peer is in use and none is outstanding. */
  pingEveryMs?: number;
  /**
   * How often a ping is sent while nobody has used the peer for `idleAfterMs` (1 s each by
   * default): an idle system's pings cost more than its work (ADR 0747).
   */
  idlePingEveryMs?: number;
  idleAfterMs?: number;
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
  /** Work for the peer is starting: watch it at the in-use rate from now (ADR 0747). */
  noteDemand(): void;
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
  health.noteDemand();
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
 * Whether a peer (a database, a service) answers, from its pings. A frozen process (SIGSTOP, a
 * stop-the-world pause: the socket stays open, nothing answers) answers neither the pings nor
 * real work, which would otherwise wait for the caller's deadline: once a ping has waited
 * `stallMs` (or failed, when `failureStalls`), the peer is stalled until a ping is answered,
 * and callers fail at once (ADRs 0743, 0744).
 *
 * A peer in use (work started for it within `idleAfterMs`) is pinged every `pingEveryMs`; an
 * idle one every `idlePingEveryMs`, and again at once when work for it starts, so a freeze
 * found by that work is judged as soon as one found while busy (ADR 0747).
 */
export class StallWatch implements StallHealth {
  private stalledSince: number | null = null;
  private outstanding: { sentAt: number } | null = null;
  private lastTickAt: number | null = null;
  private lastProgressAt = 0;
  private lastAnswerAt = 0;
  private lastDemandAt = 0;
  private readonly listeners = new Set<() => void>();
  private timer?: NodeJS.Timeout;
  private readonly pingEveryMs: number;
  private readonly stallMs: number;
  private readonly idlePingEveryMs: number;
  private readonly idleAfterMs: number;

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
    this.idlePingEveryMs = Math.max(options.idlePingEveryMs ?? 1_000, this.pingEveryMs);
    this.idleAfterMs = options.idleAfterMs ?? 1_000;
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

  noteDemand(): void {
    const now = Date.now();
    const wasIdle = !this.inUse(now);
    this.lastDemandAt = now;
    if (wasIdle && this.timer && this.outstanding === null) this.sendPing(now);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * The peer answered real work (a call's reply): it is alive, however late its ping answer, so
   * an outstanding ping sent before this is not judged (a busy peer, not a frozen one).
   */
  noteProgress(): void {
    this.lastProgressAt = Date.now();
    if (this.stalledSince !== null) this.answered();
  }

  private inUse(now: number): boolean {
    return now - this.lastDemandAt < this.idleAfterMs;
  }

  private tick(): void {
    const now = Date.now();
    // A tick this late means this process was starved (a long task, a loaded machine): an
    // answer may be waiting unread in the socket, so the ping's age says nothing this time.
    const starved = this.lastTickAt !== null && now - this.lastTickAt > this.stallMs / 2;
    this.lastTickAt = now;
    const ping = this.outstanding;
    if (ping !== null) {
      if (this.lastProgressAt >= ping.sentAt) {
        // Real work answered since this ping left proves the peer alive until then; once that
        // proof is a ping interval old, a new ping judges from now, or a freeze after the last
        // reply would never be judged.
        if (now - this.lastProgressAt >= this.pingEveryMs) this.sendPing(now);
        return;
      }
      if (starved || now - ping.sentAt < this.stallMs) return;
      // Judged after this turn's I/O, so an answer already received is read first.
      setImmediate(() => {
        if (this.outstanding === ping && this.lastProgressAt < ping.sentAt)
          this.stall(`no answer to a ping for ${Date.now() - ping.sentAt} ms`);
      });
      return;
    }
    const idle = this.stalledSince === null && !this.inUse(now);
    if (idle && now - this.lastAnswerAt < this.idlePingEveryMs) return;
    this.sendPing(now);
  }

  private sendPing(now: number): void {
    const ping = { sentAt: now };
    this.outstanding = ping;
    this.ping()
      .then(
        () => {
          this.lastAnswerAt = Date.now();
          this.answered();
        },
        (error: unknown) => {
          this.lastAnswerAt = Date.now();
          if (this.options.failureStalls) this.stall(`ping failed: ${(error as Error).message}`);
          else this.answered();
        },
      )
      .finally(() => {
        if (this.outstanding === ping) this.outstanding = null;
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
