/**
 * The wait between looks of a poller that is told about its own work (a wake, an `onReady`) and
 * polls only for what nobody tells it: another replica's leftovers, retries coming due. After a
 * look that found work the wait is `busyMs`; each empty look doubles it, up to `idleMs`, so an
 * idle replica costs the database a look every `idleMs` instead of every `busyMs` (ADR 0715).
 */
export class PollWait {
  readonly idleMs: number;
  private current: number;

  constructor(
    readonly busyMs: number,
    idleMs: number,
  ) {
    this.idleMs = Math.max(busyMs, idleMs);
    this.current = busyMs;
  }

  /** How long to wait before the next look. */
  get ms(): number {
    return this.current;
  }

  /** After a look: back to the busy interval when it found work, else twice as long (capped). */
  looked(foundWork: boolean): number {
    this.current = foundWork ? this.busyMs : Math.min(this.idleMs, this.current * 2);
    return this.current;
  }

  /**
   * Work seen between looks (a failure, records found by a pass the timer did not start): the
   * busy interval again. True when the wait got shorter, so a timer armed for the old one should
   * be re-armed.
   */
  busy(): boolean {
    const shortened = this.current !== this.busyMs;
    this.current = this.busyMs;
    return shortened;
  }
}
