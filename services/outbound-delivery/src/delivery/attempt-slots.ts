/**
 * At most `size` attempts in flight at once across every fan-out batch of a replica: the HTTP
 * agent would queue the others, and an attempt's timeout runs from its request, so a queued one
 * could time out without being sent.
 */
export class AttemptSlots {
  private inUse = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.inUse >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inUse++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so inUse only falls when none waits.
      const next = this.waiting.shift();
      if (next) next();
      else this.inUse--;
    }
  }
}
