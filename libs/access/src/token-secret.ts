/**
 * The personal access token's checksum (ADR 0114). A token keeps the specification's shape
 * `<id>|<random string>`; since issue #44 the string is 44 random alphanumerics followed by six
 * that encode the CRC32 of `<id>|<44 random>` in base 62, as GitHub's tokens carry one. A secret
 * scanner tells a real token from random text offline with `hasTokenChecksum`; authentication
 * never needs it (tokens issued before, 48 random characters, still work).
 *
 * Pure and dependency-free, so the web app, identity, the gateway and scanners' tests share it.
 */

/** Base 62 digits in GitHub's order: digits, upper case, lower case. */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const TOKEN_RANDOM_LENGTH = 44;
export const TOKEN_CHECKSUM_LENGTH = 6;
/** The secret after `|`: the random part, then the checksum. */
export const TOKEN_SECRET_LENGTH = TOKEN_RANDOM_LENGTH + TOKEN_CHECKSUM_LENGTH;

/**
 * What a scanner looks for in text (global: every match): an id without leading zeros, `|`, 50
 * alphanumerics, not inside a longer run of them. A match is a token only when
 * `hasTokenChecksum` agrees. The README shows the same expression.
 */
export const TOKEN_PATTERN = /(?<![A-Za-z0-9|])[1-9][0-9]{0,15}\|[A-Za-z0-9]{50}(?![A-Za-z0-9])/g;

/** Any token the gateway accepts in a bearer header: `<id>|<40–128 alphanumerics>`. */
const ANY_TOKEN = /^([1-9][0-9]{0,15})\|([A-Za-z0-9]{40,128})$/;

/** `<id>|<secret>` read whole (checksum or not: earlier tokens have none); else undefined. */
export function parseToken(text: string): { id: number; secret: string } | undefined {
  const match = ANY_TOKEN.exec(text);
  if (!match) return undefined;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? { id, secret: match[2]! } : undefined;
}

const WHOLE_TOKEN = /^([1-9][0-9]{0,15})\|([A-Za-z0-9]{44})([A-Za-z0-9]{6})$/;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, the zlib one) of ASCII text; token text is ASCII only. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++)
    crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Six base-62 digits, zero-padded (62^6 > 2^32, so every CRC fits). */
function base62(value: number): string {
  let digits = '';
  for (let rest = value; rest > 0; rest = Math.floor(rest / 62))
    digits = BASE62[rest % 62] + digits;
  return digits.padStart(TOKEN_CHECKSUM_LENGTH, '0');
}

/** The six checksum characters of a token with this id and random part. */
export function tokenChecksum(id: number | string, random: string): string {
  return base62(crc32(`${id}|${random}`));
}

/** The secret a new token with this id gets: the random part with its checksum appended. */
export function secretWithChecksum(id: number | string, random: string): string {
  return `${random}${tokenChecksum(id, random)}`;
}

/** Whether `<id>|<secret>` has the current shape and its checksum agrees; no request needed. */
export function hasTokenChecksum(token: string): boolean {
  const match = WHOLE_TOKEN.exec(token);
  return match !== null && tokenChecksum(match[1]!, match[2]!) === match[3];
}
