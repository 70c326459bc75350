import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** `whsec_` + 32 random bytes, base64: what a subscriber keys its HMAC with. */
export function mintSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** `sha256=<hex HMAC-SHA256 of the raw body>`, keyed with the whole secret string. */
export function signatureOf(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * The signature header: one `sha256=` value per live secret, newest first,
 * comma-separated (during a rotation overlap both the new and the old secret sign).
 */
export function signatureHeader(secretsNewestFirst: readonly string[], rawBody: string): string {
  return secretsNewestFirst.map((secret) => signatureOf(secret, rawBody)).join(',');
}
