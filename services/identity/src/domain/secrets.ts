import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { secretWithChecksum, TOKEN_RANDOM_LENGTH } from '@inventory/access';

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Unbiased random alphanumerics (rejection sampling over random bytes). */
export function randomAlphanumeric(length: number): string {
  let output = '';
  while (output.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && output.length < length) output += TOKEN_ALPHABET[byte % 62];
    }
  }
  return output;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The secret of token `id`: random alphanumerics and their checksum (ADR 0114). */
export function newTokenSecret(id: number): string {
  return secretWithChecksum(id, randomAlphanumeric(TOKEN_RANDOM_LENGTH));
}

export function hashesEqual(aHex: string, bHex: string): boolean {
  const a = Buffer.from(aHex, 'hex');
  const b = Buffer.from(bHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Session ids, CSRF tokens and recovery codes: random, shown once, stored as SHA-256. */
export function newOpaqueToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function newRecoveryCode(): string {
  const raw = randomAlphanumeric(10).toLowerCase();
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}
