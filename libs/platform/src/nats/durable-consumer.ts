import {
  AckPolicy,
  DeliverPolicy,
  type Consumer,
  type JetStreamClient,
  type JetStreamManager,
} from 'nats';
import { UNLIMITED_DELIVERIES } from './redelivery.js';

export interface DurableConsumerSpec {
  stream: string;
  /** Durable name: the consumer's position survives restarts of this process. */
  durable: string;
  /** The one subject it reads (an event type's). */
  filterSubject: string;
  /** Default: no limit (ADR 0740). */
  maxDeliver?: number;
  ackWaitMs?: number;
  /**
   * Where a consumer created now starts (default `all`: the stream's first message). `new`: the
   * messages published from its creation on, for a consumer added to a stream whose earlier
   * events were already handled another way. An existing consumer keeps its position either way.
   */
  deliverPolicy?: 'all' | 'new';
}

/**
 * The durable, explicitly acknowledged JetStream consumer a service reads one event type with,
 * created on first start from the first message on (or, `deliverPolicy: 'new'`, from the next
 * one). On a later start the existing consumer is
 * kept, so its position is too; only the redelivery settings that may change between releases
 * (`max_deliver`, `ack_wait`) are brought up to date.
 */
export async function ensureDurableConsumer(
  jetstream: JetStreamClient,
  manager: JetStreamManager,
  spec: DurableConsumerSpec,
): Promise<Consumer> {
  const { stream, durable } = spec;
  const maxDeliver = spec.maxDeliver ?? UNLIMITED_DELIVERIES;
  const ackWait = (spec.ackWaitMs ?? 30_000) * 1_000_000;
  try {
    await manager.consumers.info(stream, durable);
    await manager.consumers.update(stream, durable, { max_deliver: maxDeliver, ack_wait: ackWait });
  } catch {
    await manager.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: spec.deliverPolicy === 'new' ? DeliverPolicy.New : DeliverPolicy.All,
      filter_subject: spec.filterSubject,
      max_deliver: maxDeliver,
      ack_wait: ackWait,
    });
  }
  return jetstream.consumers.get(stream, durable);
}
