/** Runs a task when the key's rate allows it; what `ProviderClient` paces its calls with. */
export interface Pacer {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

interface KeyState {
  /** The previous caller's turn to acquire: slots are handed out in call order. */
  turn: Promise<void>;
  /** Completion times of recent calls, oldest first. */
  finished: number[];
  inFlight: number;
  /** Resolved (and replaced) whenever a call finishes, to wake waiters. */
  changed: { promise: Promise<void>; resolve: () => void };
}

function signal(): KeyState['changed'] {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Paces calls per key so the provider never sees more than `perSecond` in any
 * sliding second. A call's slot is counted from when it *finished*, not when
 * it started: the provider saw it somewhere in between, so a later call
 * started a full window after that can never land in the same window, however
 * long connection set-up or the network took. Waiting is on timers and
 * promises (the event loop keeps running); each key has its own slots, so a
 * busy key never holds up another.
 */
export class KeyPacer implements Pacer {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    private readonly perSecond: number,
    private readonly windowMs = 1_000,
  ) {}

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const state = this.keys.get(key) ?? {
      turn: Promise.resolve(),
      finished: [],
      inFlight: 0,
      changed: signal(),
    };
    this.keys.set(key, state);
    const acquired = state.turn.then(() => this.acquire(state));
    state.turn = acquired;
    await acquired;
    try {
      return await task();
    } finally {
      state.inFlight--;
      state.finished.push(Date.now());
      const { resolve } = state.changed;
      state.changed = signal();
      resolve();
      this.forgetWhenIdle(key, state);
    }
  }

  private async acquire(state: KeyState): Promise<void> {
    for (;;) {
      const now = Date.now();
      while (state.finished.length > 0 && now - state.finished[0]! >= this.windowMs)
        state.finished.shift();
      if (state.finished.length + state.inFlight < this.perSecond) {
        state.inFlight++;
        return;
      }
      const waits: Array<Promise<void>> = [state.changed.promise];
      if (state.finished.length > 0)
        waits.push(
          new Promise((resolve) => setTimeout(resolve, state.finished[0]! + this.windowMs - now)),
        );
      await Promise.race(waits);
    }
  }

  /** Drops a key's state once its window has emptied, so the map doesn't grow with every key ever used. */
  private forgetWhenIdle(key: string, state: KeyState): void {
    setTimeout(() => {
      const now = Date.now();
      if (
        state.inFlight === 0 &&
        state.finished.every((at) => now - at >= this.windowMs) &&
        this.keys.get(key) === state
      )
        this.keys.delete(key);
    }, this.windowMs + 5).unref();
  }
}
