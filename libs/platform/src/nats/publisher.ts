import { headers as natsHeaders, type JetStreamClient } from 'nats';
import { currentContext } from '../logging/request-context.js';
import { encodeEvent, type EventType, type NewEvent } from './event-types.js';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Publishes straight to JetStream. The message id is the event id, so a repeat
 * publish within the stream's duplicate window is stored once.
 */
export class EventPublisher {
  constructor(private readonly jetstream: JetStreamClient) {}

  async publish<T>(type: EventType<T>, event: NewEvent<T>): Promise<string> {
    const requestId = event.requestId ?? currentContext()?.requestId ?? '';
    const { id, bytes } = encodeEvent(type, { ...event, requestId });
    await this.publishEncoded(type.subject, id, bytes, requestId);
    return id;
  }

  async publishEncoded(
    subject: string,
    id: string,
    bytes: Uint8Array,
    requestId: string,
  ): Promise<void> {
    const headers = natsHeaders();
    if (requestId) headers.set(REQUEST_ID_HEADER, requestId);
    await this.jetstream.publish(subject, bytes, { msgID: id, headers });
  }
}
