import { hasTokenChecksum, TOKEN_SECRET_LENGTH } from '@inventory/access';
import { describe, expect, it } from 'vitest';
import { newTokenSecret } from './secrets.js';

describe('token secrets', () => {
  it('every secret identity makes carries a checksum a scanner verifies offline (ADR 0114)', () => {
    const secrets = new Set<string>();
    for (let id = 1; id <= 3_000; id++) {
      const secret = newTokenSecret(id * 7919);
      expect(secret).toMatch(new RegExp(`^[A-Za-z0-9]{${TOKEN_SECRET_LENGTH}}$`));
      expect(hasTokenChecksum(`${id * 7919}|${secret}`)).toBe(true);
      // Bound to its id: the same secret under another id is not a token.
      expect(hasTokenChecksum(`${id * 7919 + 1}|${secret}`)).toBe(false);
      secrets.add(secret);
    }
    expect(secrets.size).toBe(3_000);
  });
});
