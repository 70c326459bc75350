import { createHash } from 'node:crypto';

/**
 * The delivery id of a catalog event's delivery to one subscription, derived from the pair
 * (ADR 0408): an event redelivered after a crash mid-attempt is sent again with the same
 * `delivery_id` and the same body, before any row of it exists. Laid out as a version-4 UUID
 * (the bits a random one has), taken from SHA-256, so it is as hard to guess as the event id.
 */
export function deliveryIdOf(eventId: string, subscriptionId: number): string {
  const bytes = createHash('sha256')
    .update(`${eventId}:${subscriptionId}`)
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
