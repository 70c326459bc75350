import { describe, expect, it } from 'vitest';
import {
  DOMAIN_EVENT_NAMES,
  domainEvent,
  domainEventEntry,
  webhookEventOfSubject,
} from './domain-events.js';
import { WEBHOOK_EVENT_NAMES } from './webhook-catalog.js';

describe('the DOMAIN stream (one fact, one event: ADR 0416)', () => {
  it('carries every webhook event but product.created, whose fact is catalog.product.created', () => {
    expect([...DOMAIN_EVENT_NAMES].sort()).toEqual(
      WEBHOOK_EVENT_NAMES.filter((name) => name !== 'product.created').sort(),
    );
  });

  it('refuses domain.product.created at the type level, and names no event for that subject', () => {
    // @ts-expect-error product.created is published once, as catalog.product.created
    expect(() => domainEvent('product.created')).not.toThrow();
    // @ts-expect-error the same for an outbox entry
    domainEventEntry({ tenantId: 't', name: 'product.created', data: {} });
    expect(webhookEventOfSubject('domain.product.created')).toBeUndefined();
    expect(webhookEventOfSubject('domain.customer.created')).toBe('customer.created');
    expect(webhookEventOfSubject('catalog.product.created')).toBeUndefined();
  });
});
