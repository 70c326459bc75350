import { DomainEventPayload } from '@inventory/contracts/events/v1/domain_events.js';
import { SPECIFICATION_WEBHOOK_EVENT_NAMES } from '@inventory/events';
import { describe, expect, it } from 'vitest';
import { DOMAIN_EVENTS } from './domain-events.js';
import { EMITTABLE_EVENTS } from './index.js';

describe('outbound-webhook catalog events in the emit registry', () => {
  it('declares all ten, on the DOMAIN stream, each on its own domain.<name> subject', () => {
    expect(DOMAIN_EVENTS.map((event) => event.name).sort()).toEqual(
      [...SPECIFICATION_WEBHOOK_EVENT_NAMES].sort(),
    );
    expect(DOMAIN_EVENTS).toHaveLength(10);
    for (const event of DOMAIN_EVENTS) {
      expect(event.type.subject).toBe(`domain.${event.name}`);
      expect(event.stream.subjects).toContain('domain.>');
      expect(EMITTABLE_EVENTS).toContain(event);
    }
  });

  it('takes any JSON object as --data and carries it verbatim as the payload', () => {
    const product = DOMAIN_EVENTS.find((event) => event.name === 'product.created')!;
    const payload = product.data.parse({ id: 7, sku: 'SKU-7', nested: { a: [1] } });
    const roundTrip = DomainEventPayload.decode(
      product.type.codec.encode(payload as DomainEventPayload).finish(),
    );
    expect(JSON.parse(roundTrip.data_json)).toEqual({ id: 7, sku: 'SKU-7', nested: { a: [1] } });
  });

  it('refuses --data that is not a JSON object', () => {
    const product = DOMAIN_EVENTS.find((event) => event.name === 'product.created')!;
    for (const bad of [[1, 2], 'text', 3, null])
      expect(product.data.safeParse(bad).success).toBe(false);
  });
});
