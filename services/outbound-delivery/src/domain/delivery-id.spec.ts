import { describe, expect, it } from 'vitest';
import { deliveryIdOf } from './delivery-id.js';

const UUID_V4_LAYOUT = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('deliveryIdOf', () => {
  it('is the same for the same event and subscription, in the layout of a v4 UUID', () => {
    const id = deliveryIdOf('0f7c1f7e-8d0e-4c61-9d7e-3f1f4b1a2c3d', 7);
    expect(id).toMatch(UUID_V4_LAYOUT);
    expect(deliveryIdOf('0f7c1f7e-8d0e-4c61-9d7e-3f1f4b1a2c3d', 7)).toBe(id);
  });

  it('differs by event and by subscription', () => {
    const ids = new Set([
      deliveryIdOf('event-a', 1),
      deliveryIdOf('event-a', 2),
      deliveryIdOf('event-b', 1),
      deliveryIdOf('event-a', 11),
      deliveryIdOf('event-a1', 1),
    ]);
    expect(ids.size).toBe(5);
  });
});
