import { TRACKABLE_TYPE_SLUGS } from '@inventory/rules';
import { describe, expect, it } from 'vitest';
import { trackableTypeOf } from './trackable-type.js';

describe('trackableTypeOf', () => {
  it('answers every known type as itself', () => {
    expect(TRACKABLE_TYPE_SLUGS.map(trackableTypeOf)).toEqual(TRACKABLE_TYPE_SLUGS);
  });

  it('answers undefined for a type the rules do not know, inherited names included', () => {
    expect(trackableTypeOf('purchase_order')).toBeUndefined();
    expect(trackableTypeOf('')).toBeUndefined();
    expect(trackableTypeOf('toString')).toBeUndefined();
  });

  it('makes a misspelt comparison a compile error (tsc checks the expect-error line)', () => {
    const type = trackableTypeOf('rma');
    // @ts-expect-error: 'rmas' is not a trackable type
    expect(type === 'rmas').toBe(false);
    expect(type === 'rma').toBe(true);
  });
});
