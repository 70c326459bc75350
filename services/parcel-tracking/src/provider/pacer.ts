/**
 * Paces calls per key to at most `perSecond` starts in any sliding second, the
 * provider's limit. Each key has its own FIFO queue: callers await a slot,
 * waiting on a timer (the event loop keeps running), and other keys are never
 * held up by a busy one.
 */
export class KeyPacer {
  private readonly queues = new Map<string, { tail: Promise<void>; starts: number[] }>();

  constructor(
    private readonly perSecond: number,
    private readonly windowMs = 1_000,
    /** Margin for clock granularity between us and the provider. */
    private readonly marginMs = 15,
  ) {}

  /** Runs `task` when the key has a free slot; slots are handed out in call order. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const queue = this.queues.get(key) ?? { tail: Promise.resolve(), starts: [] };
    this.queues.set(key, queue);
    const slot = queue.tail.then(() => this.waitForSlot(queue.starts));
    queue.tail = slot.catch(() => undefined);
    await slot;
    try {
      return await task();
    } finally {
      this.forgetIdle(key, queue);
    }
  }

  private async waitForSlot(starts: number[]): Promise<void> {
    for (;;) {
      const now = Date.now();
      while (starts.length > 0 && now - starts[0]! >= this.windowMs + this.marginMs) starts.shift();
      if (starts.length < this.perSecond) {
        starts.push(now);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, starts[0]! + this.windowMs + this.marginMs - now));
    }
  }

  /** Drops a key's state once its window is empty, so the map doesn't grow with every key ever seen. */
  private forgetIdle(key: string, queue: { starts: number[] }): void {
    const last = queue.starts[queue.starts.length - 1];
    if (last === undefined) return;
    setTimeout(() => {
      if (this.queues.get(key) === queue && queue.starts[queue.starts.length - 1] === last) this.queues.delete(key);
    }, this.windowMs + this.marginMs).unref();
  }
}
