import { describe, expect, it } from 'vitest';
import { escapeRegex, tenantFilter } from './tenant-scope.js';

describe('tenantFilter', () => {
  it("keeps the caller's conditions and adds the tenant", () => {
    expect(tenantFilter('t1', { id: 7, status: { $in: ['a'] } })).toEqual({
      id: 7,
      status: { $in: ['a'] },
      tenant_id: 't1',
    });
  });

  it("never lets a caller's tenant_id replace or widen the tenant", () => {
    expect(tenantFilter('t1', { tenant_id: 't2' })).toEqual({ tenant_id: 't1' });
    expect(tenantFilter('t1', { tenant_id: { $in: ['t1', 't2'] } } as never)).toEqual({
      tenant_id: 't1',
    });
    // A caller's $or stays ANDed with the tenant, so it cannot reach another tenant's rows.
    expect(tenantFilter('t1', { $or: [{ tenant_id: 't2' }, { id: 1 }] } as never)).toEqual({
      $or: [{ tenant_id: 't2' }, { id: 1 }],
      tenant_id: 't1',
    });
  });

  it('refuses a query without a tenant', () => {
    expect(() => tenantFilter('', { id: 1 })).toThrow('tenant id is required');
  });
});

describe('escapeRegex', () => {
  it('makes every regular-expression character literal', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o';
    expect(new RegExp(escapeRegex(text)).test(text)).toBe(true);
    expect(new RegExp(escapeRegex('a.b')).test('axb')).toBe(false);
  });

  it('writes control characters as escapes, never a raw NUL MongoDB would refuse', () => {
    const pattern = escapeRegex('a\u0000b\u001fc');
    expect(pattern).toBe('a\\x00b\\x1fc');
    expect(pattern).not.toContain('\u0000');
    expect(new RegExp(pattern).test('xa\u0000b\u001fc')).toBe(true);
    expect(new RegExp(pattern).test('a0b c')).toBe(false);
  });
});
