import { describe, expect, it } from 'vitest';
import { buildAllowlist, ipAllowed } from './ip-allowlist.js';
import { parseBearer, secretMatches, sha256Hex } from './bearer.js';

describe('token allowlists', () => {
  it('matches IPv4, IPv6 and IPv4-mapped IPv6', () => {
    const list = buildAllowlist(['203.0.113.0/24', '2001:db8::/32', '198.51.100.9/32']);
    expect(ipAllowed(list, '203.0.113.200')).toBe(true);
    expect(ipAllowed(list, '::ffff:203.0.113.200')).toBe(true);
    expect(ipAllowed(list, '198.51.100.9')).toBe(true);
    expect(ipAllowed(list, '198.51.100.10')).toBe(false);
    expect(ipAllowed(list, '2001:db8:1::5')).toBe(true);
    expect(ipAllowed(list, '2001:db9::5')).toBe(false);
    expect(ipAllowed(list, '')).toBe(false);
  });
});

describe('bearer parsing', () => {
  const secret = 'a'.repeat(40);
  it('accepts <id>|<40+ alphanumerics> only', () => {
    expect(parseBearer(`Bearer 12|${secret}`)).toEqual({ tokenId: 12, secret });
    for (const bad of [
      undefined,
      '',
      `Basic 12|${secret}`,
      `Bearer 12|${'a'.repeat(39)}`,
      `Bearer x|${secret}`,
      `Bearer 0|${secret}`,
      `Bearer 12|${secret}!`,
      `Bearer 12${secret}`,
    ]) {
      expect(parseBearer(bad), String(bad)).toBeUndefined();
    }
  });

  it('compares the secret through its hash', () => {
    expect(secretMatches(secret, sha256Hex(secret))).toBe(true);
    expect(secretMatches(secret, sha256Hex(`${secret}b`))).toBe(false);
    expect(secretMatches(secret, 'abc')).toBe(false);
  });
});
