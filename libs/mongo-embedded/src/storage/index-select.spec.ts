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

  it('narrows to the pair when both leading fields of a compound key are equalities', () => {
    const withCompound: UsableIndex[] = [
      ...idx,
      { name: 'tenant_1_token_1_at_-1', leading: 'tenant', second: 'token', unique: false },
    ];
    // The shape of a tenant-scoped request-history query.
    const filter = {
      $and: [{ tenant: 't1' }, { token: { $in: [3, 4] }, at: { $gte: new Date(0) } }],
    };
    expect(chooseIndexPlan(filter, withCompound)).toEqual({
      kind: 'eq2',
      index: 'tenant_1_token_1_at_-1',
      field: 'tenant',
      values: ['t1'],
      second: 'token',
      secondValues: [3, 4],
    });
    // Only the leading field: plain equality on it; only the second: the index cannot help.
    expect(chooseIndexPlan({ tenant: 't1', at: 1 }, withCompound)).toMatchObject({
      kind: 'eq',
      index: 'tenant_1_token_1_at_-1',
    });
    expect(chooseIndexPlan({ token: 3 }, withCompound)).toBeUndefined();
    // A range on the second field is no pair equality.
    expect(chooseIndexPlan({ tenant: 't1', token: { $gt: 3 } }, withCompound)).toMatchObject({
      kind: 'eq',
    });
    // Equality on a unique single-field key still wins: at most one candidate.
    expect(chooseIndexPlan({ tenant: 't1', token: 3, email: 'a' }, withCompound)).toMatchObject({
      index: 'email_1',
    });
  });
});
