import { randomUUID } from 'node:crypto';
import { EventEnvelope } from '@inventory/contracts/events/v1/envelope.js';
import type { BinaryReader, BinaryWriter } from '@bufbuild/protobuf/wire';

/** The encode/decode pair ts-proto generates for every message. */
export interface ProtoCodec<T> {
  encode(message: T, writer?: BinaryWriter): BinaryWriter;
  decode(input: BinaryReader | Uint8Array, length?: number): T;
  fromPartial?(object: never): T;
}

/** A subject bound to its proto payload type, so publishers and consumers agree on both. */
export interface EventType<T> {
  subject: string;
  codec: ProtoCodec<T>;
}

export function defineEvent<T>(subject: string, codec: ProtoCodec<T>): EventType<T> {
  return { subject, codec };
}

export interface DomainEvent<T> {
  id: string;
  tenantId: string;
  occurredAt: Date;
  subject: string;
  requestId: string;
  payload: T;
  /**
   * The message's sequence in its JetStream stream, when it came from one: increases in the order
   * the stream stored the events, and stays the same when an event is redelivered.
   */
  streamSequence?: number;
}

export interface NewEvent<T> {
  tenantId: string;
  payload: T;
  /** Stable id when the caller must dedupe (e.g. derived from a source id); random otherwise. */
  id?: string;
  occurredAt?: Date;
  requestId?: string;
}

export function encodeEvent<T>(
  type: EventType<T>,
  event: NewEvent<T>,
): { id: string; bytes: Uint8Array } {
  const id = event.id ?? randomUUID();
  const bytes = EventEnvelope.encode({
    id,
    tenant_id: event.tenantId,
    occurred_at: event.occurredAt ?? new Date(),
    subject: type.subject,
    request_id: event.requestId ?? '',
    payload: Buffer.from(type.codec.encode(event.payload).finish()),
  }).finish();
  return { id, bytes };
}

export function decodeEnvelope(bytes: Uint8Array): EventEnvelope {
  return EventEnvelope.decode(bytes);
}

export function decodeEvent<T>(type: EventType<T>, envelope: EventEnvelope): DomainEvent<T> {
  return {
    id: envelope.id,
    tenantId: envelope.tenant_id,
    occurredAt: envelope.occurred_at ?? new Date(0),
    subject: envelope.subject,
    requestId: envelope.request_id,
    payload: type.codec.decode(envelope.payload),
  };
}
