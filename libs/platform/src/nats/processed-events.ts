import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKeyError } from '../mongo/tenant-scope.js';

interface ProcessedEventDocument {
  consumer: string;
  event_id: string;
  state: 'processing' | 'done';
  claimed_at: Date;
}

const schema = new Schema<ProcessedEventDocument>(
  {
    consumer: { type: String, required: true },
    event_id: { type: String, required: true },
    state: { type: String, required: true },
    claimed_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'processed_events' },
);
schema.index({ consumer: 1, event_id: 1 }, { unique: true });
// Remembered for longer than any redelivery window, then forgotten.
schema.index({ claimed_at: 1 }, { expireAfterSeconds: 14 * 24 * 3600 });

export type ClaimResult = 'claimed' | 'already-done' | 'in-progress';

/**
 * Remembers which events a consumer has handled. A claim is taken before the
 * side effect and confirmed after it; a failed handler releases its claim so the
 * redelivery runs it again, and a claim abandoned by a crash expires after
 * `staleAfterMs` so it cannot block the event forever.
 */
export class ProcessedEventStore {
  private compiled: Model<ProcessedEventDocument> | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly staleAfterMs = 60_000,
  ) {}

  /**
   * Compiled on first use: mongoose creates a model's collection and indexes as it compiles it,
   * and a service none of whose consumers keeps these records should hold neither.
   */
  private get model(): Model<ProcessedEventDocument> {
    this.compiled ??=
      (this.connection.models.ProcessedEvent as Model<ProcessedEventDocument> | undefined) ??
      this.connection.model<ProcessedEventDocument>('ProcessedEvent', schema);
    return this.compiled;
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  async claim(consumer: string, eventId: string): Promise<ClaimResult> {
    try {
      await this.model.create({
        consumer,
        event_id: eventId,
        state: 'processing',
        claimed_at: new Date(),
      });
      return 'claimed';
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const stale = new Date(Date.now() - this.staleAfterMs);
    const retaken = await this.model
      .findOneAndUpdate(
        { consumer, event_id: eventId, state: 'processing', claimed_at: { $lt: stale } },
        { $set: { claimed_at: new Date() } },
      )
      .lean();
    if (retaken) return 'claimed';
    const existing = await this.model.findOne({ consumer, event_id: eventId }).lean();
    return existing?.state === 'done' ? 'already-done' : 'in-progress';
  }

  async complete(consumer: string, eventId: string): Promise<void> {
    await this.model.updateOne({ consumer, event_id: eventId }, { $set: { state: 'done' } });
  }

  async release(consumer: string, eventId: string): Promise<void> {
    await this.model.deleteOne({ consumer, event_id: eventId, state: 'processing' });
  }
}
