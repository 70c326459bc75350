import { DomainEventPayload } from '@inventory/contracts/events/v1/domain_events.js';
import { SPECIFICATION_WEBHOOK_EVENT_NAMES } from '@inventory/events';
import { describe, expect, it } from 'vitest';
import { DOMAIN_EVENTS } from './domain-events.js';
import { EMITTABLE_EVENTS } from './index.js';

describe('outbound-webhook catalog events in the emit registry', () => {
  it('declares nine of the ten, on the DOMAIN stream, each on its own domain.<name> subject', () => {
    // product.created is one fact with the product record: emitted as catalog.product.created.
    expect(DOMAIN_EVENTS.map((event) => event.name).sort()).toEqual(
      SPECIFICATION_WEBHOOK_EVENT_NAMES.filter((name) => name !== 'product.created').sort(),
    );
    expect(DOMAIN_EVENTS).toHaveLength(9);
    for (const event of DOMAIN_EVENTS) {
      expect(event.type.subject).toBe(`domain.${event.name}`);
      expect(event.stream.subjects).toContain('domain.>');
      expect(EMITTABLE_EVENTS).toContain(event);
    }
  });

  it('takes any JSON object as --data and carries it verbatim as the payload', () => {
    const customer = DOMAIN_EVENTS.find((event) => event.name === 'customer.created')!;
    const payload = customer.data.parse({ id: 7, name: 'Wile', nested: { a: [1] } });
    const roundTrip = DomainEventPayload.decode(
      customer.type.codec.encode(payload as DomainEventPayload).finish(),
    );
    expect(JSON.parse(roundTrip.data_json)).toEqual({ id: 7, name: 'Wile', nested: { a: [1] } });
  });

  it('refuses --data that is not a JSON object', () => {
    const customer = DOMAIN_EVENTS.find((event) => event.name === 'customer.created')!;
    for (const bad of [[1, 2], 'text', 3, null])
      expect(customer.data.safeParse(bad).success).toBe(false);
  });
});
