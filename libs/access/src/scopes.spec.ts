import { describe, expect, it } from 'vitest';
import {
  addedElevatedScopes,
  isElevatedScope,
  isKnownScope,
  SCOPES,
  userHasPermission,
} from './scopes.js';

describe('scope rules', () => {
  it('knows exactly the specification table and webhooks:read', () => {
    expect(SCOPES).toHaveLength(16);
    expect(isKnownScope('webhooks:read')).toBe(true);
    expect(isElevatedScope('webhooks:read')).toBe(false);
    expect(isKnownScope('orders:read')).toBe(true);
    expect(isKnownScope('warehouses:write')).toBe(false);
    expect(isKnownScope('orders:*')).toBe(false);
  });

  it('treats :write and :manage as elevated', () => {
    expect(isElevatedScope('orders:write')).toBe(true);
    expect(isElevatedScope('webhooks:manage')).toBe(true);
    expect(isElevatedScope('orders:read')).toBe(false);
    expect(
      addedElevatedScopes(['orders:write'], ['orders:write', 'orders:read', 'products:write']),
    ).toEqual(['products:write']);
  });

  it('gives an owner every permission and others only their list', () => {
    expect(userHasPermission({ is_owner: true, permissions: [] }, 'orders:write')).toBe(true);
    expect(
      userHasPermission({ is_owner: false, permissions: ['orders:read'] }, 'orders:read'),
    ).toBe(true);
    expect(
      userHasPermission({ is_owner: false, permissions: ['orders:read'] }, 'orders:write'),
    ).toBe(false);
  });
});
