import { headers as natsHeaders, type JetStreamClient } from 'nats';
import { currentContext } from '../logging/request-context.js';
import {
  endSpan,
  isTracing,
  SpanKind,
  startSpan,
  traceHeaders,
  type Span,
} from '../tracing/tracing.js';
import { encodeEvent, type EventType, type NewEvent } from './event-types.js';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Publishes straight to JetStream. The message id is the event id, so a repeat
 * publish within the stream's duplicate window is stored once.
 */
export class EventPublisher {
  constructor(private readonly jetstream: JetStreamClient) {}

  async publish<T>(type: EventType<T>, event: NewEvent<T>): Promise<string> {
    const context = currentContext();
    const requestId = event.requestId ?? context?.requestId ?? '';
    const { id, bytes } = encodeEvent(type, { ...event, requestId });
    const span = producerSpan(type.subject, id, context?.span);
    try {
      await this.publishEncoded(type.subject, id, bytes, requestId, traceHeaders(span));
    } catch (error) {
      endSpan(span, error);
      throw error;
    }
    endSpan(span);
    return id;
  }

  /** `trace`: the W3C headers of the span that produced the event (see `traceHeaders`). */
  async publishEncoded(
    subject: string,
    id: string,
    bytes: Uint8Array,
    requestId: string,
    trace: Record<string, string> = {},
  ): Promise<void> {
    const headers = natsHeaders();
    if (requestId) headers.set(REQUEST_ID_HEADER, requestId);
    for (const [key, value] of Object.entries(trace)) headers.set(key, value);
    await this.jetstream.publish(subject, bytes, { msgID: id, headers });
  }
}

/** The span of producing one event: the parent of every consumer's span for it. */
export function producerSpan(subject: string, eventId: string, parent: Span | undefined) {
  if (!isTracing()) return undefined;
  return startSpan(`${subject} publish`, {
    kind: SpanKind.PRODUCER,
    parent,
    attributes: {
      'messaging.system': 'nats',
      'messaging.destination.name': subject,
      'messaging.message.id': eventId,
    },
  });
}
