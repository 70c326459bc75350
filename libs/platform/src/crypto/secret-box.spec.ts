import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox(randomBytes(32).toString('base64'));

  it('round-trips and never stores the plaintext', () => {
    const stored = box.encrypt('my_provider_key_123');
    expect(stored).not.toContain('my_provider_key_123');
    expect(stored.startsWith('v1:')).toBe(true);
    expect(box.decrypt(stored)).toBe('my_provider_key_123');
  });

  it('uses a fresh IV: the same key encrypts differently each time', () => {
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('refuses a tampered value and a value from another key', () => {
    const stored = box.encrypt('secret_value');
    const parts = stored.split(':');
    const flipped = Buffer.from(parts[3]!, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(() =>
      box.decrypt([parts[0], parts[1], parts[2], flipped.toString('base64')].join(':')),
    ).toThrow();
    expect(() => new SecretBox(randomBytes(32).toString('base64')).decrypt(stored)).toThrow();
    expect(() => box.decrypt('garbage')).toThrow(/unrecognised/);
  });

  it('requires a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
