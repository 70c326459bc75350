import type { ConsumerMessages, JetStreamClient, JetStreamManager, JsMsg } from 'nats';
import type { Logger } from 'pino';
import { runWithContext, newRequestId } from '../logging/request-context.js';
import { endSpan, isTracing, SpanKind, startSpan, type Span } from '../tracing/tracing.js';
import {
  eventHandlingDuration,
  eventsHandled,
  eventsRedelivered,
  trackConsumerPending,
} from '../metrics/shared-metrics.js';
import { decodeEnvelope, decodeEvent, type DomainEvent, type EventType } from './event-types.js';
import { ensureDurableConsumer } from './durable-consumer.js';
import { DEFAULT_RETRY_BACKOFF, redeliveryDelayMs, STUCK_AFTER_DELIVERIES } from './redelivery.js';
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
  /** Default: no limit; an event is never dropped because its handler kept failing (ADR 0740). */
  maxDeliver?: number;
  ackWaitMs?: number;
  /** The wait before the first redelivery of a failed event; doubled each time, up to a minute. */
  retryDelayMs?: number;
  /** The longest wait between redeliveries (default 60 s). */
  maxRetryDelayMs?: number;
}

export interface ConsumerHandle {
  stop(): Promise<void>;
}

/**
 * A durable, explicitly acknowledged JetStream consumer. Handler failures are nak'ed and retried
 * with a growing delay (`redeliveryDelayMs`), without a limit unless `maxDeliver` sets one;
 * undecodable messages are terminated (they can never succeed) and logged.
 */
export async function startConsumer<T>(options: ConsumerOptions<T>): Promise<ConsumerHandle> {
  const { manager, jetstream, stream, durable, logger } = options;
  const consumer = await ensureDurableConsumer(jetstream, manager, {
    stream,
    durable,
    filterSubject: options.event.subject,
    maxDeliver: options.maxDeliver,
    ackWaitMs: options.ackWaitMs,
  });
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 64 });
  let inFlight = Promise.resolve();

  const untrackPending = trackConsumerPending(durable, async () => {
    const info = await manager.consumers.info(stream, durable);
    return info.num_pending + info.num_ack_pending;
  });
  type Outcome = 'handled' | 'duplicate' | 'failed' | 'undecodable' | 'in-progress';
  const count = (subject: string, outcome: Outcome): Outcome => {
    eventsHandled.inc({ durable, subject, outcome });
    return outcome;
  };

  const handleMessage = async (message: JsMsg) => {
    if (message.redelivered) eventsRedelivered.inc({ durable });
    const stopTimer = eventHandlingDuration.startTimer({ durable });
    // The publisher's span (W3C headers on the message) is this one's parent.
    const span = isTracing()
      ? startSpan(`${message.subject} process`, {
          kind: SpanKind.CONSUMER,
          remote: (key) => message.headers?.get(key) || undefined,
          attributes: {
            'messaging.system': 'nats',
            'messaging.destination.name': message.subject,
            'messaging.consumer.group.name': durable,
          },
        })
      : undefined;
    let outcome: Outcome | undefined;
    try {
      outcome = await handleDecoded(message, span);
    } finally {
      stopTimer();
      endSpan(span, outcome === 'failed' || outcome === 'undecodable' ? outcome : undefined, {
        'messaging.outcome': outcome ?? 'crashed',
      });
    }
  };

  const handleDecoded = async (message: JsMsg, span: Span | undefined): Promise<Outcome> => {
    let event: DomainEvent<T>;
    try {
      event = {
        ...decodeEvent(options.event, decodeEnvelope(message.data)),
        streamSequence: message.seq,
      };
    } catch (error) {
      logger.error(
        { err: error, subject: message.subject, durable },
        'undecodable event terminated',
      );
      message.term();
      return count(message.subject, 'undecodable');
    }
    const context = {
      requestId: event.requestId || newRequestId(),
      tenantId: event.tenantId,
      span,
    };
    return runWithContext(context, async (): Promise<Outcome> => {
      const processed = options.processed;
      if (processed) {
        const claim = await processed.claim(durable, event.id);
        if (claim === 'already-done') {
          message.ack();
          return count(event.subject, 'duplicate');
        }
        if (claim === 'in-progress') {
          message.nak(options.retryDelayMs ?? DEFAULT_RETRY_BACKOFF.baseMs);
          return 'in-progress';
        }
      }
      try {
        await options.handle(event);
        await processed?.complete(durable, event.id);
        message.ack();
        return count(event.subject, 'handled');
      } catch (error) {
        await processed?.release(durable, event.id).catch(() => undefined);
        const failed = count(event.subject, 'failed');
        const deliveries = message.info.redeliveryCount;
        const delayMs = redeliveryDelayMs(deliveries, {
          baseMs: options.retryDelayMs,
          maxMs: options.maxRetryDelayMs,
        });
        logger[deliveries >= STUCK_AFTER_DELIVERIES ? 'error' : 'warn'](
          {
            err: error,
            event_id: event.id,
            subject: event.subject,
            attempt: deliveries,
            retry_in_ms: delayMs,
            durable,
          },
          'event handler failed; will retry',
        );
        message.nak(delayMs);
        return failed;
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
