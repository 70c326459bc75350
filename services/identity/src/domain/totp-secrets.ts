import type { SecretBox } from '@inventory/platform';

/** What a secret stored before ADR 0106 looks like: bare base32 (the sealed form has `:`). */
const PLAINTEXT_BASE32 = /^[A-Z2-7]+=*$/;

/** The form a TOTP secret is stored in: AES-256-GCM, a fresh IV each time. */
export function sealTotpSecret(secrets: SecretBox, secret: string): string {
  return secrets.encrypt(secret);
}

/**
 * The base32 secret from its stored form. A plaintext secret written before
 * encryption at rest is still accepted (`legacy`), so the caller can seal it on
 * its next write (ADR 0106). A value sealed with another key or tampered with
 * throws: 2FA then fails closed, never open.
 */
export function openTotpSecret(
  secrets: SecretBox,
  stored: string,
): { secret: string; legacy: boolean } {
  if (PLAINTEXT_BASE32.test(stored)) return { secret: stored, legacy: true };
  return { secret: secrets.decrypt(stored), legacy: false };
}
