import { describe, expect, it } from 'vitest';
import { buildAllowlist, ipAllowed, normaliseCidr, parseCidr } from './cidr.js';

describe('CIDR ranges', () => {
  it('accepts IPv4 and IPv6 ranges and bare addresses', () => {
    expect(parseCidr('10.0.0.0/8')).toEqual({ family: 'ipv4', address: '10.0.0.0', prefix: 8 });
    expect(parseCidr('2001:db8::/32')).toEqual({
      family: 'ipv6',
      address: '2001:db8::',
      prefix: 32,
    });
    expect(normaliseCidr('203.0.113.7')).toBe('203.0.113.7/32');
    expect(normaliseCidr('2001:DB8::1')).toBe('2001:db8::1/128');
  });

  it('refuses malformed ranges', () => {
    for (const bad of [
      '10.0.0.0/33',
      '10.0.0/8',
      'abc',
      '2001:db8::/129',
      '10.0.0.0/8/1',
      '10.0.0.0/-1',
      '',
      '1.2.3.4/ 8',
    ]) {
      expect(parseCidr(bad), bad).toBeUndefined();
    }
  });

  it('matches IPv4, IPv6 and IPv4-mapped IPv6 peers', () => {
    const list = buildAllowlist(['198.51.100.0/24', '2001:db8:abcd::/48']);
    expect(ipAllowed(list, '198.51.100.77')).toBe(true);
    expect(ipAllowed(list, '::ffff:198.51.100.77')).toBe(true);
    expect(ipAllowed(list, '198.51.101.1')).toBe(false);
    expect(ipAllowed(list, '2001:db8:abcd:12::1')).toBe(true);
    expect(ipAllowed(list, '2001:db8:abce::1')).toBe(false);
    expect(ipAllowed(list, 'not-an-ip')).toBe(false);
  });
});
