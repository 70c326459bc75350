import {
  AckPolicy,
  DeliverPolicy,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from 'nats';
import type { Logger } from 'pino';
import { runWithContext, newRequestId } from '../logging/request-context.js';
import {
  eventHandlingDuration,
  eventsHandled,
  eventsRedelivered,
  trackConsumerPending,
} from '../metrics/shared-metrics.js';
import { decodeEnvelope, decodeEvent, type DomainEvent, type EventType } from './event-types.js';
import type { ProcessedEventStore } from './processed-events.js';

export interface ConsumerOptions<T> {
  jetstream: JetStreamClient;
  manager: JetStreamManager;
  stream: string;
  /** Durable name: the consumer's position survives restarts of this process. */
  durable: string;
  event: EventType<T>;
  handle: (event: DomainEvent<T>) => Promise<void>;
  /** When given, each event id is handled at most once by this durable consumer. */
  processed?: ProcessedEventStore;
  logger: Logger;
  maxDeliver?: number;
  ackWaitMs?: number;
  /** Back-off before a failed event is redelivered. */
  retryDelayMs?: number;
}

export interface ConsumerHandle {
  stop(): Promise<void>;
}

/**
 * A durable, explicitly acknowledged JetStream consumer. Handler failures are
 * nak'ed with a delay and retried up to `maxDeliver`; undecodable messages are
 * terminated (they can never succeed) and logged.
 */
export async function startConsumer<T>(options: ConsumerOptions<T>): Promise<ConsumerHandle> {
  const { manager, jetstream, stream, durable, logger } = options;
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: options.event.subject,
    max_deliver: options.maxDeliver ?? 10,
    ack_wait: (options.ackWaitMs ?? 30_000) * 1_000_000,
  };
  try {
    await manager.consumers.info(stream, durable);
    await manager.consumers.update(stream, durable, {
      max_deliver: config.max_deliver,
      ack_wait: config.ack_wait,
    });
  } catch {
    await manager.consumers.add(stream, config);
  }
  const consumer = await jetstream.consumers.get(stream, durable);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 64 });
  let inFlight = Promise.resolve();

  const untrackPending = trackConsumerPending(durable, async () => {
    const info = await manager.consumers.info(stream, durable);
    return info.num_pending + info.num_ack_pending;
  });
  const count = (subject: string, outcome: string) =>
    eventsHandled.inc({ durable, subject, outcome });

  const handleMessage = async (message: JsMsg) => {
    if (message.redelivered) eventsRedelivered.inc({ durable });
    const stopTimer = eventHandlingDuration.startTimer({ durable });
    try {
      await handleDecoded(message);
    } finally {
      stopTimer();
    }
  };

  const handleDecoded = async (message: JsMsg) => {
    let event: DomainEvent<T>;
    try {
      event = decodeEvent(options.event, decodeEnvelope(message.data));
    } catch (error) {
      logger.error(
        { err: error, subject: message.subject, durable },
        'undecodable event terminated',
      );
      count(message.subject, 'undecodable');
      message.term();
      return;
    }
    const context = { requestId: event.requestId || newRequestId(), tenantId: event.tenantId };
    await runWithContext(context, async () => {
      const processed = options.processed;
      if (processed) {
        const claim = await processed.claim(durable, event.id);
        if (claim === 'already-done') {
          count(event.subject, 'duplicate');
          message.ack();
          return;
        }
        if (claim === 'in-progress') {
          message.nak(options.retryDelayMs ?? 1_000);
          return;
        }
      }
      try {
        await options.handle(event);
        await processed?.complete(durable, event.id);
        count(event.subject, 'handled');
        message.ack();
      } catch (error) {
        await processed?.release(durable, event.id).catch(() => undefined);
        count(event.subject, 'failed');
        logger.warn(
          {
            err: error,
            event_id: event.id,
            subject: event.subject,
            attempt: message.info.redeliveryCount,
            durable,
          },
          'event handler failed; will retry',
        );
        message.nak(options.retryDelayMs ?? 1_000);
      }
    });
  };

  const loop = (async () => {
    for await (const message of messages) {
      inFlight = handleMessage(message).catch((error: unknown) =>
        logger.error({ err: error, durable }, 'event handling crashed'),
      );
      await inFlight;
    }
  })();

  return {
    async stop() {
      untrackPending();
      await messages.close();
      await inFlight;
      await loop.catch(() => undefined);
    },
  };
}
