export { connectNats } from './connection.js';
export {
  decodeEnvelope,
  decodeEvent,
  defineEvent,
  encodeEvent,
  type DomainEvent,
  type EventType,
  type NewEvent,
  type ProtoCodec,
} from './event-types.js';
export { ensureStream, type StreamSpec } from './streams.js';
export { EventPublisher, REQUEST_ID_HEADER } from './publisher.js';
export { startConsumer, type ConsumerHandle, type ConsumerOptions } from './consumer.js';
export { startBatchConsumer, type BatchConsumerOptions } from './batch-consumer.js';
export {
  DEFAULT_RETRY_BACKOFF,
  redeliveryDelayMs,
  UNLIMITED_DELIVERIES,
  type RetryBackoff,
} from './redelivery.js';
export { ensureDurableConsumer, type DurableConsumerSpec } from './durable-consumer.js';
export { ProcessedEventStore, type ClaimResult } from './processed-events.js';
export {
  Outbox,
  startOutboxRelay,
  type OutboxEntry,
  type OutboxRelayHandle,
  type OutboxRelayOptions,
} from './outbox.js';
