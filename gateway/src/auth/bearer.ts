import { createHash, timingSafeEqual } from 'node:crypto';

/** The scheme name is case-insensitive and may be followed by several spaces (RFC 9110 §11). */
const BEARER = /^bearer +([1-9]\d{0,15})\|([A-Za-z0-9]{40,128})$/i;

/** `Bearer <id>|<secret>`; anything else is undefined (answered 401 Unauthenticated). */
export function parseBearer(
  header: string | undefined,
): { tokenId: number; secret: string } | undefined {
  if (!header) return undefined;
  const match = BEARER.exec(header.trim());
  if (!match) return undefined;
  const tokenId = Number(match[1]);
  return Number.isSafeInteger(tokenId) ? { tokenId, secret: match[2]! } : undefined;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Constant-time comparison of the presented secret's SHA-256 with the stored one. */
export function secretMatches(secret: string, storedHashHex: string): boolean {
  const presented = createHash('sha256').update(secret).digest();
  const stored = Buffer.from(storedHashHex, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}
