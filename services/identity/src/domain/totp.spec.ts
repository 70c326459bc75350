import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, totp, verifyTotp } from './totp.js';

// RFC 6238 appendix B, SHA-1 seed "12345678901234567890" (8-digit vectors; we use the low 6 digits).
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));

describe('TOTP (RFC 6238, HMAC-SHA1, 30 s)', () => {
  it('matches the RFC test vectors', () => {
    expect(totp(RFC_SECRET, 59_000)).toBe('287082');
    expect(totp(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    expect(totp(RFC_SECRET, 1_234_567_890_000)).toBe('005924');
    expect(totp(RFC_SECRET, 2_000_000_000_000)).toBe('279037');
  });

  it('matches the RFC 4226 HOTP vectors', () => {
    const secret = Buffer.from('12345678901234567890');
    expect([0, 1, 2, 9].map((counter) => hotp(secret, counter))).toEqual([
      '755224',
      '287082',
      '359152',
      '520489',
    ]);
  });

  it('accepts one step of drift either way, and nothing further', () => {
    const now = 1_700_000_000_000;
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now), now)).toBe(Math.floor(now / 30_000));
    // The step a code belongs to is what the replay guard records: exact, not merely present.
    const step = Math.floor(now / 30_000);
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now - 30_000), now)).toBe(step - 1);
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now + 30_000), now)).toBe(step + 1);
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now - 60_000), now)).toBeUndefined();
    expect(verifyTotp(RFC_SECRET, 'abcdef', now)).toBeUndefined();
  });

  it('round-trips base32', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
  });
});
