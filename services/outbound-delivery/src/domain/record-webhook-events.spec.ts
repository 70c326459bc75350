import {
  DOMAIN_EVENT_NAMES,
  productCreated,
  WEBHOOK_EVENT_CATALOG,
  WEBHOOK_EVENT_NAMES,
  type ProductCreated,
} from '@inventory/events';
import type { DomainEvent } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import {
  productCreatedData,
  RECORD_WEBHOOK_EVENTS,
  webhookEventOfRecord,
} from './record-webhook-events.js';

const OCCURRED = new Date('2026-03-04T05:06:07.089Z');

const record = (overrides: Partial<NonNullable<ProductCreated['product']>> = {}) => ({
  product_id: 42,
  sku: 'ACME-42',
  name: 'Anvil',
  type: 'standard',
  barcode: '4006381333931',
  price: '19.99',
  created_at: new Date('2026-03-01T10:00:00.000Z'),
  updated_at: new Date('2026-03-02T11:00:00.000Z'),
  ...overrides,
});

describe('catalog.product.created → product.created', () => {
  it('is the product as the product list shows it, id the product id', () => {
    expect(productCreatedData({ product: record(), version: 3 }, OCCURRED)).toEqual({
      id: 42,
      sku: 'ACME-42',
      name: 'Anvil',
      type: 'standard',
      barcode: '4006381333931',
      price: '19.99',
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-02T11:00:00.000Z',
    });
  });

  it("takes the event's occurred_at for missing dates and null for a missing or empty barcode", () => {
    const bare = record({ barcode: undefined, created_at: undefined, updated_at: undefined });
    expect(productCreatedData({ product: bare, version: 1 }, OCCURRED)).toMatchObject({
      barcode: null,
      created_at: OCCURRED.toISOString(),
      updated_at: OCCURRED.toISOString(),
    });
    const created = new Date('2026-01-01T00:00:00.000Z');
    expect(
      productCreatedData(
        {
          product: record({ barcode: '', created_at: created, updated_at: undefined }),
          version: 1,
        },
        OCCURRED,
      ),
    ).toMatchObject({
      barcode: null,
      created_at: created.toISOString(),
      updated_at: created.toISOString(),
    });
  });

  it('carries every field the published schema names, and nothing for an event without a record', () => {
    const data = productCreatedData({ product: record(), version: 1 }, OCCURRED)!;
    for (const field of ['id', 'sku', 'name']) expect(data).toHaveProperty(field);
    expect(productCreatedData({ version: 1 }, OCCURRED)).toBeUndefined();
  });

  it('keeps the bus event’s id, tenant, time and stream position for the delivery', () => {
    const source = RECORD_WEBHOOK_EVENTS.find((entry) => entry.name === 'product.created')!;
    expect(source.event.subject).toBe(productCreated.subject);
    const event: DomainEvent<ProductCreated> = {
      id: 'evt-1',
      tenantId: 'tenant-a',
      occurredAt: OCCURRED,
      subject: productCreated.subject,
      requestId: 'r',
      payload: { product: record(), version: 1 },
      streamSequence: 17,
    };
    expect(webhookEventOfRecord(source, event)).toMatchObject({
      id: 'evt-1',
      tenantId: 'tenant-a',
      occurredAt: OCCURRED,
      streamSequence: 17,
      name: 'product.created',
      data: { id: 42, sku: 'ACME-42' },
    });
    expect(webhookEventOfRecord(source, { ...event, payload: { version: 1 } })).toBeUndefined();
  });
});

describe('one event per fact', () => {
  it('feeds every webhook event from exactly one stream: DOMAIN or one record event', () => {
    const fromRecords = RECORD_WEBHOOK_EVENTS.map((entry) => entry.name);
    const all = [...DOMAIN_EVENT_NAMES, ...fromRecords];
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual([...WEBHOOK_EVENT_NAMES].sort());
    expect(fromRecords).toEqual(['product.created']);
    expect(Object.keys(WEBHOOK_EVENT_CATALOG)).toContain('product.created');
  });
});
