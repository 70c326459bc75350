import { describe, expect, it } from 'vitest';
import {
  checkAllowlist,
  checkExpiry,
  checkName,
  checkRateLimit,
  checkScopes,
} from './token-rules.js';
import { Violations } from './validation.js';

describe('token rules', () => {
  it("names every bad field once: the gateway's type errors, then the rules' for the others", () => {
    const v = new Violations([{ field: 'name', description: 'The name field is required.' }]);
    checkName('', v);
    checkAllowlist(['not-an-ip', '10.0.0.0/33'], v);
    checkRateLimit(5000, v);
    checkExpiry(new Date('2020-01-01T00:00:00Z'), new Date(), v);
    expect(v.list.map((violation) => violation.field)).toEqual([
      'name',
      'ip_allowlist.0',
      'ip_allowlist.1',
      'rate_limit_per_minute',
      'expires_at',
    ]);
  });

  it('requires a name of at most 255 characters', () => {
    const v = new Violations();
    checkName('', v);
    checkName('x'.repeat(256), v);
    checkName('x'.repeat(255), v);
    expect(v.list).toEqual([
      { field: 'name', description: 'The name field is required.' },
      { field: 'name', description: 'The name field must not be greater than 255 characters.' },
    ]);
  });

  it('refuses a name with a NUL character anywhere in it', () => {
    const v = new Violations();
    checkName('ci\u0000deploy', v);
    checkName('\u0000', v);
    checkName('ci deploy', v);
    expect(v.list).toEqual([
      { field: 'name', description: 'The name field must not contain control characters.' },
      { field: 'name', description: 'The name field must not contain control characters.' },
    ]);
  });

  it('names each unknown scope and dedupes known ones', () => {
    const v = new Violations();
    expect(checkScopes(['orders:read', 'orders:read', 'orders:delete'], v)).toEqual([
      'orders:read',
      'orders:delete',
    ]);
    expect(v.list.map((x) => x.field)).toEqual(['scopes.2']);
    expect(v.list[0]!.description).toContain('orders:delete');
  });

  it('normalises CIDRs and names the invalid ones', () => {
    const v = new Violations();
    expect(checkAllowlist(['10.0.0.0/8', '2001:DB8::/32', '300.1.1.1/8'], v)).toEqual([
      '10.0.0.0/8',
      '2001:db8::/32',
    ]);
    expect(v.list.map((x) => x.field)).toEqual(['ip_allowlist.2']);
  });

  it('bounds the rate limit to 1..1000 and the expiry to the future', () => {
    const v = new Violations();
    checkRateLimit(0, v);
    checkRateLimit(1001, v);
    checkRateLimit(1000, v);
    checkExpiry(new Date(1000), new Date(2000), v);
    checkExpiry(new Date(3000), new Date(2000), v);
    expect(v.list.map((x) => x.field)).toEqual([
      'rate_limit_per_minute',
      'rate_limit_per_minute',
      'expires_at',
    ]);
  });
});
