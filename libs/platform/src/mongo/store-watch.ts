import mongoose from 'mongoose';
import type { Logger } from 'pino';
import { unavailable } from '../grpc/errors.js';

export interface StoreWatchOptions {
  /** How often a ping is sent while none is outstanding. */
  pingEveryMs?: number;
  /** An outstanding ping older than this, or a failed one, means the store is stalled. */
  stallMs?: number;
  logger?: Logger;
  /** Called on each change, e.g. to set a gauge. */
  onChange?: (stalled: boolean) => void;
}

/** What the gRPC boundary reads: whether to fail calls fast, and when to fail those in flight. */
export interface StoreHealth {
  stalled(): boolean;
  /** Calls `listener` once the store stalls; answers the function that stops listening. */
  onStall(listener: () => void): () => void;
}

/** What a call is answered while the service's MongoDB does not answer (ADR 0743). */
export const storeStalled = () =>
  unavailable('service_unavailable', "The service's database is not answering; retry later.");

/**
 * `start()`'s result, or `storeStalled()` at once when the store is stalled now (then `start` is
 * not called) or stalls before that result comes (then `onStall` runs, e.g. to abort the work,
 * and the late result is dropped): the one rule for a unary call and for one message of a stream.
 */
export function unlessStoreStalls<T>(
  store: StoreHealth | undefined,
  start: () => Promise<T>,
  onStall?: () => void,
): Promise<T> {
  if (!store) return start();
  if (store.stalled()) return Promise.reject(storeStalled());
  return new Promise<T>((resolve, reject) => {
    // Listening only while the store answers; the listener runs later, never during this call.
    const stopListening = store.onStall(() => {
      onStall?.();
      reject(storeStalled());
    });
    start().then(resolve, reject).finally(stopListening);
  });
}

/**
 * Whether this service's MongoDB answers, from pings on a connection of its own (so a busy pool
 * is not taken for a dead server) every `pingEveryMs`. A frozen server answers neither the pings
 * nor the service's own commands, which would otherwise wait for the caller's deadline (5 s and
 * more, ADR 0743): once a ping has waited `stallMs`, or failed, the store is stalled until a
 * ping succeeds, and the gRPC boundary answers UNAVAILABLE at once.
 */
export class StoreWatch implements StoreHealth {
  private stalledSince: number | null = null;
  private pingStartedAt: number | null = null;
  private lastTickAt: number | null = null;
  private readonly listeners = new Set<() => void>();
  private timer?: NodeJS.Timeout;

  private constructor(
    private readonly client: mongoose.mongo.MongoClient,
    private readonly options: Required<Omit<StoreWatchOptions, 'logger' | 'onChange'>> &
      StoreWatchOptions,
  ) {}

  static async start(url: string, options: StoreWatchOptions = {}): Promise<StoreWatch> {
    const client = new mongoose.mongo.MongoClient(url, {
      maxPoolSize: 1,
      serverSelectionTimeoutMS: 2_000,
      appName: 'store-watch',
    });
    await client.connect();
    const watch = new StoreWatch(client, { pingEveryMs: 100, stallMs: 500, ...options });
    watch.timer = setInterval(() => watch.tick(), watch.options.pingEveryMs);
    watch.timer.unref();
    return watch;
  }

  stalled(): boolean {
    return this.stalledSince !== null;
  }

  onStall(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.client.close(true);
  }

  private tick(): void {
    const now = Date.now();
    // A tick this late means this process was starved (a long task, a loaded machine): an
    // answer may be waiting unread in the socket, so the ping's age says nothing this time.
    const starved = this.lastTickAt !== null && now - this.lastTickAt > this.options.stallMs / 2;
    this.lastTickAt = now;
    if (this.pingStartedAt !== null) {
      const startedAt = this.pingStartedAt;
      if (starved || now - startedAt < this.options.stallMs) return;
      // Judged after this turn's I/O, so an answer already received is read first.
      setImmediate(() => {
        if (this.pingStartedAt === startedAt)
          this.stall(`no answer to a ping for ${Date.now() - startedAt} ms`);
      });
      return;
    }
    this.pingStartedAt = now;
    this.client
      .db('admin')
      .command({ ping: 1 })
      .then(
        () => this.answered(),
        (error: unknown) => this.stall(`ping failed: ${(error as Error).message}`),
      )
      .finally(() => {
        this.pingStartedAt = null;
      });
  }

  private stall(why: string): void {
    if (this.stalledSince !== null) return;
    this.stalledSince = Date.now();
    this.options.logger?.warn({ why }, 'MongoDB is not answering: calls fail fast until it does');
    this.options.onChange?.(true);
    for (const listener of [...this.listeners]) listener();
  }

  private answered(): void {
    if (this.stalledSince === null) return;
    this.options.logger?.info(
      { stalled_ms: Date.now() - this.stalledSince },
      'MongoDB answers again',
    );
    this.stalledSince = null;
    this.options.onChange?.(false);
  }
}
