import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEV_IDENTITY_SECRET_ENCRYPTION_KEY,
  readConfig,
  readSecretEncryptionKey,
} from './config.js';

const base = { MONGO_URL: 'mongodb://127.0.0.1:1', NATS_URL: 'nats://127.0.0.1:1' };

describe('identity config', () => {
  it('uses the development TOTP-secret key only outside production', () => {
    expect(readConfig(base).IDENTITY_SECRET_ENCRYPTION_KEY).toBe(
      DEV_IDENTITY_SECRET_ENCRYPTION_KEY,
    );
    expect(() => readConfig({ ...base, NODE_ENV: 'production' })).toThrow(
      /IDENTITY_SECRET_ENCRYPTION_KEY: is required in production/,
    );
    const key = randomBytes(32).toString('base64');
    expect(
      readConfig({ ...base, NODE_ENV: 'production', IDENTITY_SECRET_ENCRYPTION_KEY: key })
        .IDENTITY_SECRET_ENCRYPTION_KEY,
    ).toBe(key);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() =>
      readConfig({ ...base, IDENTITY_SECRET_ENCRYPTION_KEY: randomBytes(16).toString('base64') }),
    ).toThrow(/32 bytes/);
  });

  it('reads the key alone by the same rules (the admin CLI)', () => {
    expect(readSecretEncryptionKey({})).toBe(DEV_IDENTITY_SECRET_ENCRYPTION_KEY);
    expect(() => readSecretEncryptionKey({ NODE_ENV: 'production' })).toThrow(
      /IDENTITY_SECRET_ENCRYPTION_KEY: is required in production/,
    );
  });
});
