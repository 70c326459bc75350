import { Schema, type Connection, type Model } from 'mongoose';
import type { Logger } from 'pino';
import { currentContext } from '../logging/request-context.js';
import { encodeEvent, type EventType, type NewEvent } from './event-types.js';
import { endSpan, traceHeaders } from '../tracing/tracing.js';
import { PollWait } from '../polling/poll-wait.js';
import { producerSpan, type EventPublisher } from './publisher.js';
import {
  outboxBacklog,
  outboxPublished,
  outboxPublishFailures,
  outboxRelayLag,
} from '../metrics/shared-metrics.js';

interface OutboxDocument {
  event_id: string;
  subject: string;
  data: Buffer;
  request_id: string;
  /** W3C `traceparent` of the span that produced the event; empty when tracing is off. */
  traceparent: string;
  state: 'pending' | 'ready';
  created_at: Date;
  attempts: number;
}

const schema = new Schema<OutboxDocument>(
  {
    event_id: { type: String, required: true, unique: true },
    subject: { type: String, required: true },
    data: { type: Buffer, required: true },
    request_id: { type: String, default: '' },
    traceparent: { type: String, default: '' },
    state: { type: String, required: true },
    created_at: { type: Date, required: true },
    attempts: { type: Number, default: 0 },
  },
  { versionKey: false, collection: 'outbox' },
);
schema.index({ state: 1, created_at: 1 });

export interface OutboxEntry<T> {
  type: EventType<T>;
  event: NewEvent<T>;
}

/**
 * The transactional outbox, for a standalone server without multi-document
 * transactions (see docs/decisions/0004-outbox-without-transactions.md): the
 * event is written first as `pending`, the state change runs, and only then is
 * the event marked `ready`. A failed change deletes its events; a crash between
 * the change and the flip leaves a `pending` record that the relay publishes
 * after a grace period, so nothing is lost (at-least-once; consumers dedupe).
 */
export class Outbox {
  readonly model: Model<OutboxDocument>;
  private readyListener?: () => void;

  constructor(connection: Connection) {
    this.model =
      (connection.models.OutboxRecord as Model<OutboxDocument> | undefined) ??
      connection.model<OutboxDocument>('OutboxRecord', schema);
  }

  onReady(listener: () => void): void {
    this.readyListener = listener;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async withEvents<R>(entries: Array<OutboxEntry<any>>, change: () => Promise<R>): Promise<R> {
    const context = currentContext();
    const requestId = context?.requestId ?? '';
    const records = entries.map(({ type, event }) => {
      const { id, bytes } = encodeEvent(type, {
        ...event,
        requestId: event.requestId ?? requestId,
      });
      // The event is produced now; the relay only carries it, so its span ends here.
      const span = producerSpan(type.subject, id, context?.span);
      endSpan(span);
      return {
        event_id: id,
        subject: type.subject,
        data: Buffer.from(bytes),
        request_id: requestId,
        traceparent: traceHeaders(span).traceparent ?? '',
        state: 'pending' as const,
        created_at: new Date(),
        attempts: 0,
      };
    });
    const ids = records.map((record) => record.event_id);
    if (records.length > 0) await this.model.insertMany(records);
    let result: R;
    try {
      result = await change();
    } catch (error) {
      if (ids.length > 0) await this.model.deleteMany({ event_id: { $in: ids }, state: 'pending' });
      throw error;
    }
    if (ids.length > 0) {
      await this.model.updateMany({ event_id: { $in: ids } }, { $set: { state: 'ready' } });
      this.readyListener?.();
    }
    return result;
  }

  /**
   * The oldest `limit` records to publish: those ready, and those left pending by a crash before
   * `orphanedBefore`. One query per state, each in the order of the `{state, created_at}` index, so
   * a pass reads what it publishes however long the backlog (one `$or` sorted by `created_at`
   * read and sorted every record; after a NATS outage every pass did so, ADR 0726).
   */
  async due(orphanedBefore: Date, limit: number): Promise<OutboxDocument[]> {
    const oldest = (filter: Record<string, unknown>) =>
      this.model.find(filter).sort({ created_at: 1 }).limit(limit).lean<OutboxDocument[]>();
    const [ready, orphaned] = await Promise.all([
      oldest({ state: 'ready' }),
      oldest({ state: 'pending', created_at: { $lt: orphanedBefore } }),
    ]);
    return [...ready, ...orphaned]
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime())
      .slice(0, limit);
  }

  /** How many records wait, and when the oldest was created (read by index, as `due` is). */
  async backlog(): Promise<{ records: number; oldest?: Date }> {
    const first = (state: OutboxDocument['state']) =>
      this.model
        .findOne({ state }, { created_at: 1 })
        .sort({ created_at: 1 })
        .lean<{ created_at: Date } | null>();
    const [records, ready, pending] = await Promise.all([
      this.model.countDocuments(),
      first('ready'),
      first('pending'),
    ]);
    const dates = [ready?.created_at, pending?.created_at].filter((date) => date !== undefined);
    return {
      records,
      oldest: dates.length > 0 ? new Date(Math.min(...dates.map((d) => d.getTime()))) : undefined,
    };
  }

  /** Records events whose state change has already been made durable elsewhere. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async add(entries: Array<OutboxEntry<any>>): Promise<void> {
    await this.withEvents(entries, async () => undefined);
  }
}

/** Lean reads hand back BSON Binary for Buffer fields. */
function toBytes(data: Buffer | { buffer: Uint8Array }): Uint8Array {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer);
}

export interface OutboxRelayOptions {
  outbox: Outbox;
  publisher: EventPublisher;
  logger: Logger;
  /** How often the relay looks for records while it finds some (default 1 s). */
  intervalMs?: number;
  /**
   * The longest wait between looks when it finds none (default 10 s): each empty look doubles the
   * wait up to this, and a look that finds work, or fails, brings it back to `intervalMs`.
   */
  idleIntervalMs?: number;
  /** How old a `pending` record must be before it counts as orphaned by a crash. */
  orphanAfterMs?: number;
  batchSize?: number;
  /** The clock that ages pending records; tests pass their own instead of waiting. */
  now?: () => number;
}

export interface OutboxRelayHandle {
  /** Publishes what is due now; resolves when this pass is done. */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelayHandle {
  const { outbox, publisher, logger } = options;
  const orphanAfterMs = options.orphanAfterMs ?? 30_000;
  const now = options.now ?? Date.now;
  let running: Promise<number> | undefined;
  let stopped = false;
  let again = false;

  // A relay's own records are published as soon as they are ready (`onReady`); the timer is for
  // what that missed: a failed publish, another replica's crash. An idle relay backs off, so an
  // idle service costs MongoDB a look every 10 s instead of every second (ADR 0715).
  const wait = new PollWait(options.intervalMs ?? 1_000, options.idleIntervalMs ?? 10_000);
  let foundWork = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(tick, wait.ms);
  };
  const tick = () =>
    void flush().then(() => {
      wait.looked(foundWork);
      foundWork = false;
      schedule();
    });
  const noteWork = () => {
    foundWork = true;
    if (wait.busy()) schedule();
  };

  const pass = async (): Promise<number> => {
    const due = await outbox.due(new Date(now() - orphanAfterMs), options.batchSize ?? 100);
    if (due.length > 0) noteWork();
    let published = 0;
    for (const record of due) {
      try {
        await publisher.publishEncoded(
          record.subject,
          record.event_id,
          toBytes(record.data),
          record.request_id,
          record.traceparent ? { traceparent: record.traceparent } : {},
        );
        await outbox.model.deleteOne({ event_id: record.event_id });
        outboxPublished.inc();
        published++;
      } catch (error) {
        outboxPublishFailures.inc();
        await outbox.model
          .updateOne({ event_id: record.event_id }, { $inc: { attempts: 1 } })
          .catch(() => undefined);
        logger.warn(
          { err: error, event_id: record.event_id, subject: record.subject },
          'outbox publish failed; will retry',
        );
        break;
      }
    }
    if (published > 0 || now() - measuredAt >= 10_000) await measureBacklog();
    return published;
  };

  // Backlog and lag: what is left and how old the oldest of it is. Measured after a pass that
  // published, and every 10 s otherwise, so an idle relay costs no extra queries per tick.
  let measuredAt = 0;
  const measureBacklog = async () => {
    measuredAt = now();
    const { records, oldest } = await outbox.backlog();
    outboxBacklog.set(records);
    outboxRelayLag.set(oldest ? Math.max(0, (now() - oldest.getTime()) / 1000) : 0);
  };

  const flush = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = pass()
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'outbox relay pass failed');
        noteWork();
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void flush();
        }
      });
    return running;
  };

  outbox.onReady(() => void flush());
  schedule();
  void flush();

  return {
    flush,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
