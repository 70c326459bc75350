import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The provider's push signature (DESIGN §8): `sign` = hex SHA-256 of `<raw body>/<api key>`.
 * Compared in constant time; a value of the wrong length or not hex is simply invalid.
 */
export function isValidWebhookSignature(
  rawBody: Uint8Array,
  apiKey: string,
  sign: string,
): boolean {
  const expected = createHash('sha256').update(rawBody).update(`/${apiKey}`).digest();
  const given = /^[0-9a-f]{64}$/i.test(sign) ? Buffer.from(sign, 'hex') : null;
  return given !== null && timingSafeEqual(expected, given);
}
