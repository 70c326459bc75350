import { describe, expect, it } from 'vitest';
import { chooseIndexPlan, type UsableIndex } from './index-select.js';

const idx: UsableIndex[] = [
  { name: '_id_', leading: '_id', unique: true },
  { name: 'email_1', leading: 'email', unique: true },
  { name: 'qty_1', leading: 'qty', unique: false },
];

describe('chooseIndexPlan', () => {
  it('uses equality on an indexed field', () => {
    expect(chooseIndexPlan({ email: 'a', other: 1 }, idx)).toEqual({
      kind: 'eq',
      values: ['a'],
      index: 'email_1',
      field: 'email',
    });
  });
  it('uses $in and $eq', () => {
    expect(chooseIndexPlan({ qty: { $in: [1, 2] } }, idx)).toMatchObject({
      kind: 'eq',
      values: [1, 2],
      index: 'qty_1',
    });
    expect(chooseIndexPlan({ qty: { $eq: 3 } }, idx)).toMatchObject({ kind: 'eq', values: [3] });
  });
  it('builds range bounds within one type bracket', () => {
    expect(chooseIndexPlan({ qty: { $gte: 1, $lt: 5 } }, idx)).toMatchObject({
      kind: 'range',
      bounds: { t: 'n', lower: { k: 1, inclusive: true }, upper: { k: 5, inclusive: false } },
    });
    expect(chooseIndexPlan({ qty: { $gt: 1, $lt: 'z' } }, idx)).toBeUndefined();
  });
  it('prefers equality over range and looks inside $and', () => {
    expect(chooseIndexPlan({ $and: [{ qty: { $gt: 1 } }, { email: 'x' }] }, idx)).toMatchObject({
      index: 'email_1',
    });
  });
  it('falls back to a scan for unindexed fields, regexes, null and $or', () => {
    expect(chooseIndexPlan({ name: 'a' }, idx)).toBeUndefined();
    expect(chooseIndexPlan({ email: /a/ }, idx)).toBeUndefined();
    expect(chooseIndexPlan({ email: null }, idx)).toBeUndefined();
    expect(chooseIndexPlan({ $or: [{ email: 'a' }, { qty: 1 }] }, idx)).toBeUndefined();
  });
});
