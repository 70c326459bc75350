import mongoose from 'mongoose';
import { unavailable } from '../grpc/errors.js';
import {
  StallWatch,
  unlessStalled,
  type StallHealth,
  type StallWatchOptions,
} from '../health/stall-watch.js';

export type StoreWatchOptions = StallWatchOptions;

/** What the gRPC boundary reads of the service's MongoDB. */
export type StoreHealth = StallHealth;

/** What a call is answered while the service's MongoDB does not answer (ADR 0743). */
export const storeStalled = () =>
  unavailable('service_unavailable', "The service's database is not answering; retry later.");

/**
 * `start()`'s result, or `storeStalled()` at once when the store is stalled now or stalls before
 * that result comes (then `onStall` runs and the late result is dropped): the one rule for a
 * unary call and for one message of a stream.
 */
export const unlessStoreStalls = <T>(
  store: StoreHealth | undefined,
  start: () => Promise<T>,
  onStall?: () => void,
): Promise<T> => unlessStalled(store, storeStalled, start, onStall);

/**
 * Whether this service's MongoDB answers, from pings on a connection of its own (so a busy pool
 * is not taken for a dead server). A frozen server answers neither the pings nor the service's
 * own commands, which would otherwise wait for the caller's deadline (5 s and more, ADR 0743):
 * once a ping has waited `stallMs` (500 ms), or failed, the store is stalled until a ping
 * succeeds, and the gRPC boundary answers UNAVAILABLE at once.
 */
export class StoreWatch extends StallWatch {
  private constructor(
    private readonly client: mongoose.mongo.MongoClient,
    options: StoreWatchOptions,
  ) {
    super('MongoDB', () => client.db('admin').command({ ping: 1 }), {
      ...options,
      failureStalls: true,
    });
  }

  static async start(url: string, options: StoreWatchOptions = {}): Promise<StoreWatch> {
    const client = new mongoose.mongo.MongoClient(url, {
      maxPoolSize: 1,
      serverSelectionTimeoutMS: 2_000,
      appName: 'store-watch',
    });
    await client.connect();
    return new StoreWatch(client, options).start();
  }

  override async stop(): Promise<void> {
    super.stop();
    await this.client.close(true);
  }
}
