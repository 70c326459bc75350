import type { JetStreamClient, JetStreamManager, JsMsg } from 'nats';
import {
  decodeEnvelope,
  decodeEvent,
  ensureDurableConsumer,
  type DomainEvent,
  type EventType,
  type Logger,
} from '@inventory/platform';

export interface BatchConsumerOptions<T> {
  jetstream: JetStreamClient;
  manager: JetStreamManager;
  stream: string;
  /** Durable name: the position survives restarts (the same consumer the one-by-one one used). */
  durable: string;
  event: EventType<T>;
  /** Handles a whole batch; a throw naks every event of it (the handler must be idempotent). */
  handle: (events: Array<DomainEvent<T>>) => Promise<void>;
  logger: Logger;
  /** Most events handled together. */
  maxBatch?: number;
  /**
   * Awaited before each batch: how many events the handler has room for now (0: no room came,
   * take a whole batch anyway). Events beyond it stay in the consumer for the next batch.
   */
  room?: () => Promise<number>;
  maxDeliver?: number;
  ackWaitMs?: number;
  retryDelayMs?: number;
}

/**
 * A durable JetStream consumer that hands the handler every event that arrived while the
 * previous batch was being handled (group commit): one event at a time cost the fan-out a
 * MongoDB round trip per event, a batch costs one per batch. Acknowledged only after the
 * handler resolved, so a crash redelivers the batch (at-least-once; fan-out is idempotent by its
 * unique key). ADR 0406.
 */
export async function startBatchConsumer<T>(
  options: BatchConsumerOptions<T>,
): Promise<{ stop(): Promise<void> }> {
  const { manager, jetstream, stream, durable, logger } = options;
  const maxBatch = options.maxBatch ?? 256;
  const consumer = await ensureDurableConsumer(jetstream, manager, {
    stream,
    durable,
    filterSubject: options.event.subject,
    maxDeliver: options.maxDeliver,
    ackWaitMs: options.ackWaitMs,
  });
  const messages = await consumer.consume({ max_messages: maxBatch });

  const waiting: JsMsg[] = [];
  let draining: Promise<void> | undefined;

  const handleBatch = async (batch: JsMsg[]) => {
    const decoded: Array<{ message: JsMsg; event: DomainEvent<T> }> = [];
    for (const message of batch) {
      try {
        decoded.push({ message, event: decodeEvent(options.event, decodeEnvelope(message.data)) });
      } catch (error) {
        logger.error(
          { err: error, subject: message.subject, durable },
          'undecodable event terminated',
        );
        message.term();
      }
    }
    if (decoded.length === 0) return;
    try {
      await options.handle(decoded.map((entry) => entry.event));
      for (const { message } of decoded) message.ack();
    } catch (error) {
      logger.warn(
        { err: error, events: decoded.length, durable },
        'event batch handler failed; will retry',
      );
      for (const { message } of decoded) message.nak(options.retryDelayMs ?? 1_000);
    }
  };

  const drain = async () => {
    while (waiting.length > 0) {
      const room = options.room ? await options.room() : maxBatch;
      await handleBatch(waiting.splice(0, room > 0 ? Math.min(room, maxBatch) : maxBatch));
    }
    draining = undefined;
  };

  const loop = (async () => {
    for await (const message of messages) {
      waiting.push(message);
      draining ??= drain().catch((error: unknown) =>
        logger.error({ err: error, durable }, 'event batch handling crashed'),
      );
    }
  })();

  return {
    async stop() {
      await messages.close();
      await loop.catch(() => undefined);
      await draining;
    },
  };
}
