import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EMITTABLE_EVENTS } from './index.js';

describe('the emit registry', () => {
  it('names every event once, so no area shadows another', () => {
    const names = EMITTABLE_EVENTS.map((event) => event.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it('knows the shipment, outbound catalog and read-model events by their documented names', () => {
    const names = new Set(EMITTABLE_EVENTS.map((event) => event.name));
    for (const name of [
      'shipment.tracking_assigned',
      'shipment.tracking_changed',
      'shipment.tracking_removed',
      'sales_order.shipped',
      'customer.created',
      'catalog.product.created',
      'catalog.purchase_invoice.deleted',
    ])
      expect(names.has(name), name).toBe(true);
  });

  it('emits each fact once: a product created is catalog.product.created alone (ADR 0416)', () => {
    const names = EMITTABLE_EVENTS.map((event) => event.name);
    expect(names).not.toContain('product.created');
    const subjects = EMITTABLE_EVENTS.map((event) => event.type.subject);
    expect(subjects.filter((subject) => subject.endsWith('product.created'))).toEqual([
      'catalog.product.created',
    ]);
    expect(
      EMITTABLE_EVENTS.find((event) => event.name === 'catalog.product.created')!.stream.name,
    ).toBe('CATALOG');
  });

  it('is listed whole in the README, with each event under its stream', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const event of EMITTABLE_EVENTS) {
      const row = readme.split('\n').find((line) => line.includes(`\`${event.name}\``));
      expect(row, event.name).toBeDefined();
      expect(row, event.name).toContain(`(\`${event.stream.name}\`)`);
    }
  });
});
