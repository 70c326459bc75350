import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** `whsec_` + 32 random bytes, base64: what a subscriber keys its HMAC with. */
export function mintSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * One secret's two HMAC keys, derived once: the whole `whsec_…` string for `X-SVC-Signature`, and
 * its base64 part decoded for Standard Webhooks. A sender keeps these for the secrets it signs
 * with rather than converting the secret for every delivery (ADR 0745).
 */
export interface SigningKey {
  svc: KeyObject;
  standard: KeyObject;
}

export function signingKeyOf(secret: string): SigningKey {
  return {
    svc: createSecretKey(Buffer.from(secret, 'utf8')),
    standard: createSecretKey(Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')),
  };
}

const keyOf = (secret: string | SigningKey): SigningKey =>
  typeof secret === 'string' ? signingKeyOf(secret) : secret;

/**
 * The specification's `X-SVC-Signature`: `sha256=<hex HMAC-SHA256 of the raw body>`, keyed with
 * the whole secret string. Exactly one value, from the current secret, whatever the rotation
 * state: the format has no room for two, and stock verifiers compare the whole header (ADR 0410).
 */
export function signatureOf(secret: string | SigningKey, rawBody: string): string {
  return `sha256=${createHmac('sha256', keyOf(secret).svc).update(rawBody).digest('hex')}`;
}

/**
 * Standard Webhooks' `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`
 * per live secret, newest first, space-separated, keyed with the secret's base64 part decoded,
 * as the standard's libraries read a `whsec_` secret. During a rotation overlap both secrets
 * sign, so a receiver on either one verifies without a gap (ADR 0410).
 */
export function standardSignature(
  secretsNewestFirst: ReadonlyArray<string | SigningKey>,
  message: { id: string; timestampSeconds: number; body: string },
): string {
  const signed = `${message.id}.${message.timestampSeconds}.${message.body}`;
  return secretsNewestFirst
    .map(
      (secret) =>
        `v1,${createHmac('sha256', keyOf(secret).standard).update(signed).digest('base64')}`,
    )
    .join(' ');
}
