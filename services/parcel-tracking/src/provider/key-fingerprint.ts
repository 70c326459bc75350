import { createHash } from 'node:crypto';

/**
 * An API key's SHA-256 (hex): what names a key's pacing window, quota cache entry, breaker and
 * the rows it registered, so the plaintext key is never kept or logged outside its encryption.
 */
export const keyFingerprint = (apiKey: string): string =>
  createHash('sha256').update(apiKey).digest('hex');
