import type { JetStreamClient, JetStreamManager, JsMsg } from 'nats';
import type { Logger } from 'pino';
import {
  eventsHandled,
  eventsRedelivered,
  trackConsumerPending,
} from '../metrics/shared-metrics.js';
import { ensureDurableConsumer } from './durable-consumer.js';
import { decodeEnvelope, decodeEvent, type DomainEvent, type EventType } from './event-types.js';
import { redeliveryDelayMs, STUCK_AFTER_DELIVERIES } from './redelivery.js';

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
   * Batches handled at once (default 1). More lets a batch stuck on a slow receiver leave the
   * others to go on (fan-out makes its first attempts inside the batch, ADR 0408).
   */
  concurrency?: number;
  /** Default: no limit (ADR 0740). */
  maxDeliver?: number;
  /**
   * How long JetStream waits for an ack before redelivering (default 30 s). Events held here
   * are kept alive (`working()`) every third of it, so only a dead replica's events come back.
   */
  ackWaitMs?: number;
  /** The wait before the first redelivery of a failed batch's events; doubled each time. */
  retryDelayMs?: number;
  /** The longest wait between redeliveries (default 60 s). */
  maxRetryDelayMs?: number;
  /** Where the durable starts when it is created (`ensureDurableConsumer`; default `all`). */
  deliverPolicy?: 'all' | 'new';
}

/**
 * A durable JetStream consumer that hands the handler every event that arrived while the
 * previous batches were being handled (group commit): one event at a time cost the fan-out a
 * MongoDB round trip per event, a batch costs one per batch. Acknowledged only after the
 * handler resolved, so a crash redelivers the batch (at-least-once; fan-out is idempotent by its
 * unique key). A failed batch's events come back with a growing delay and are never dropped
 * (ADR 0740). ADR 0406; several batches at once and the heartbeat, ADR 0408.
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
    deliverPolicy: options.deliverPolicy,
  });
  const concurrency = options.concurrency ?? 1;
  // Enough pulled for every batch place to start a full batch.
  const messages = await consumer.consume({ max_messages: maxBatch * concurrency });
  // The same backlog gauge as the one-at-a-time consumer's, read only when metrics are scraped.
  const untrackPending = trackConsumerPending(durable, async () => {
    const info = await manager.consumers.info(stream, durable);
    return info.num_pending + info.num_ack_pending;
  });

  const waiting: JsMsg[] = [];
  /** Every event taken and not yet acked or nakked: what the heartbeat keeps alive. */
  const held = new Set<JsMsg>();
  let active = 0;
  let idle: (() => void) | undefined;
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const heartbeat = setInterval(() => {
    for (const message of held) message.working();
  }, ackWaitMs / 3);
  heartbeat.unref();

  const handleBatch = async (batch: JsMsg[]) => {
    const decoded: Array<{ message: JsMsg; event: DomainEvent<T> }> = [];
    for (const message of batch) {
      try {
        const event = decodeEvent(options.event, decodeEnvelope(message.data));
        decoded.push({ message, event: { ...event, streamSequence: message.seq } });
      } catch (error) {
        logger.error(
          { err: error, subject: message.subject, durable },
          'undecodable event terminated',
        );
        message.term();
        held.delete(message);
        eventsHandled.inc({ durable, subject: message.subject, outcome: 'undecodable' });
      }
    }
    if (decoded.length === 0) return;
    try {
      await options.handle(decoded.map((entry) => entry.event));
      for (const { message } of decoded) {
        message.ack();
        held.delete(message);
      }
      for (const { event } of decoded)
        eventsHandled.inc({ durable, subject: event.subject, outcome: 'handled' });
    } catch (error) {
      const backoff = { baseMs: options.retryDelayMs, maxMs: options.maxRetryDelayMs };
      const deliveries = Math.max(...decoded.map(({ message }) => message.info.redeliveryCount));
      logger[deliveries >= STUCK_AFTER_DELIVERIES ? 'error' : 'warn'](
        {
          err: error,
          events: decoded.length,
          attempt: deliveries,
          retry_in_ms: redeliveryDelayMs(deliveries, backoff),
          durable,
        },
        'event batch handler failed; will retry',
      );
      for (const { message, event } of decoded) {
        eventsHandled.inc({ durable, subject: event.subject, outcome: 'failed' });
        message.nak(redeliveryDelayMs(message.info.redeliveryCount, backoff));
        held.delete(message);
      }
    }
  };

  /**
   * Starts batches while there are events and a free place; each batch ends by starting the
   * next. Deferred to the next turn of the event loop, so the events of one pull make one batch
   * rather than a batch each.
   */
  let pumpQueued = false;
  const pump = () => {
    pumpQueued = false;
    while (waiting.length > 0 && active < concurrency) {
      active++;
      void handleBatch(waiting.splice(0, maxBatch))
        .catch((error: unknown) =>
          logger.error({ err: error, durable }, 'event batch handling crashed'),
        )
        .finally(() => {
          active--;
          pump();
          if (active === 0 && waiting.length === 0) idle?.();
        });
    }
  };
  const schedulePump = () => {
    if (pumpQueued) return;
    pumpQueued = true;
    setImmediate(pump);
  };

  const loop = (async () => {
    for await (const message of messages) {
      if (message.redelivered) eventsRedelivered.inc({ durable });
      waiting.push(message);
      held.add(message);
      schedulePump();
    }
  })();

  return {
    async stop() {
      // Whatever closing the pull says, the batches in hand finish before the caller goes on to
      // close what they use (the HTTP agents, the settles).
      await Promise.resolve(messages.close()).catch((error: unknown) =>
        logger.warn({ err: error, durable }, 'closing the pull failed'),
      );
      await loop.catch(() => undefined);
      // Events already taken are still handled (and acked), as one at a time would be.
      if (active > 0 || waiting.length > 0)
        await new Promise<void>((resolve) => {
          idle = resolve;
          pump();
        });
      clearInterval(heartbeat);
      untrackPending();
    },
  };
}
