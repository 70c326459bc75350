import { describe, expect, it } from 'vitest';
import {
  crc32,
  hasTokenChecksum,
  secretWithChecksum,
  TOKEN_PATTERN,
  TOKEN_RANDOM_LENGTH,
  TOKEN_SECRET_LENGTH,
} from './token-secret.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A seeded generator (mulberry32), so the corpus, and any failure, is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomText(next: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += ALPHANUMERIC[Math.floor(next() * 62)];
  return text;
}

const tokenFrom = (id: number, random: string) => `${id}|${secretWithChecksum(id, random)}`;

describe('the token checksum (ADR 0114)', () => {
  it('is the zlib CRC-32', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
  });

  it('every token made with it verifies, keeps the <id>|<alphanumerics> shape and matches the pattern', () => {
    const next = seeded(44);
    for (let n = 0; n < 5_000; n++) {
      const id = 1 + Math.floor(next() * 1e9);
      const token = tokenFrom(id, randomText(next, TOKEN_RANDOM_LENGTH));
      expect(token).toMatch(new RegExp(`^${id}\\|[A-Za-z0-9]{${TOKEN_SECRET_LENGTH}}$`));
      expect(hasTokenChecksum(token), token).toBe(true);
      expect(token.match(TOKEN_PATTERN)).toEqual([token]);
    }
  });

  it('no random string of the same shape passes: a corpus of 200,000 gives no false positive', () => {
    const next = seeded(2026);
    const falsePositives: string[] = [];
    for (let n = 0; n < 200_000; n++) {
      const candidate = `${1 + Math.floor(next() * 1e6)}|${randomText(next, TOKEN_SECRET_LENGTH)}`;
      if (hasTokenChecksum(candidate)) falsePositives.push(candidate);
    }
    expect(falsePositives).toEqual([]);
  });

  it('any one changed character, a swapped id or a token of the earlier 48-character form fails', () => {
    const next = seeded(7);
    for (let n = 0; n < 500; n++) {
      const token = tokenFrom(1 + n, randomText(next, TOKEN_RANDOM_LENGTH));
      const at = token.indexOf('|') + 1 + Math.floor(next() * TOKEN_SECRET_LENGTH);
      const replacement = ALPHANUMERIC.replace(token[at]!, '')[Math.floor(next() * 61)]!;
      expect(hasTokenChecksum(`${token.slice(0, at)}${replacement}${token.slice(at + 1)}`)).toBe(
        false,
      );
      expect(hasTokenChecksum(token.replace(/^\d+/, String(n + 2)))).toBe(false);
    }
    const legacy = `12|${randomText(next, 48)}`;
    expect(hasTokenChecksum(legacy)).toBe(false);
    expect(legacy.match(TOKEN_PATTERN)).toBeNull();
  });

  it('finds tokens in text by the pattern, not inside longer runs, and the checksum sorts them', () => {
    const next = seeded(99);
    const real = tokenFrom(42, randomText(next, TOKEN_RANDOM_LENGTH));
    const lookalike = `43|${randomText(next, TOKEN_SECRET_LENGTH)}`;
    const text = `export TOKEN="${real}"\nother=${lookalike}\nx${real}y 0${real}`;
    const found = text.match(TOKEN_PATTERN) ?? [];
    expect(found).toEqual([real, lookalike]);
    expect(found.filter(hasTokenChecksum)).toEqual([real]);
  });
});
