import { describe, expect, it } from 'vitest';
import { carrierName, detectCarrier } from './carriers.js';
import { QuotaAccount } from './quota.js';
import { RateLimiter } from './rate-limiter.js';
import { scriptFor } from './progression.js';
import { toIso, toUtc } from './time.js';
import { signBody } from '../webhooks/pusher.js';

describe('RateLimiter', () => {
  it('allows `limit` requests per sliding second and per key', () => {
    let now = 10_000;
    const limiter = new RateLimiter(3, () => now);
    expect([1, 2, 3, 4].map(() => limiter.tryAcquire('a'))).toEqual([true, true, true, false]);
    expect(limiter.tryAcquire('b')).toBe(true);
    now += 999;
    expect(limiter.tryAcquire('a')).toBe(false);
    now += 1;
    expect(limiter.tryAcquire('a')).toBe(true);
  });
});

describe('QuotaAccount', () => {
  it('resets today_used when the UTC day changes but keeps quota_used', () => {
    let now = new Date('2025-03-01T23:59:00Z');
    const quota = new QuotaAccount(10, 2, () => now);
    quota.consume();
    quota.consume();
    expect(quota.check()).toBe(-18019907);
    now = new Date('2025-03-02T00:00:01Z');
    expect(quota.check()).toBeUndefined();
    expect(quota.snapshot()).toMatchObject({ quota_used: 2, quota_remain: 8, today_used: 0 });
  });

  it('says -18019908 when the total is used up', () => {
    const quota = new QuotaAccount(1, 100, () => new Date());
    quota.consume();
    expect(quota.check()).toBe(-18019908);
  });
});

describe('carriers', () => {
  it.each([
    ['1Z999AA10123456784', 100002],
    ['9400111899223344556677', 21051],
    ['EA123456789US', 21051],
    ['123456789012', 100003],
    ['1234567890', 190271],
    ['RR123456789CN', 3011],
    ['AB123456789GB', 11031],
    ['SOMETHING123', 3011],
  ])('detects %s as %i', (number, carrier) => {
    expect(detectCarrier(number)).toBe(carrier);
  });

  it('cannot detect UNDETECTABLE numbers and names carriers', () => {
    expect(detectCarrier('undetectable42')).toBeUndefined();
    expect(carrierName(100003)).toBe('FedEx');
    expect(carrierName(1)).toBeUndefined();
  });
});

describe('progression scripts and time format', () => {
  it('picks the script by prefix, case-insensitively', () => {
    expect(scriptFor('exc123456')).toBe('exception');
    expect(scriptFor('FAIL123456')).toBe('failure');
    expect(scriptFor('1Z999AA10123456784')).toBe('default');
  });

  it('formats time_iso with the offset and time_utc with Z', () => {
    const d = new Date('2025-03-02T14:47:05.123Z');
    expect(toUtc(d)).toBe('2025-03-02T14:47:05Z');
    expect(toIso(d, '+08:00')).toBe('2025-03-02T22:47:05+08:00');
    expect(toIso(d, '-05:00')).toBe('2025-03-02T09:47:05-05:00');
  });

  it('signs sha256(body + "/" + key) in hex', () => {
    // echo -n '{}/k' | sha256sum
    expect(signBody('{}', 'k')).toBe(
      'b46c2b8292d50affff807248811c13b448cb2b46949460bc740284221257a064',
    );
    expect(signBody('{}', 'k')).not.toBe(signBody('{}', 'j'));
  });
});
