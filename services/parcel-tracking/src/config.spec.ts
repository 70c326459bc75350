import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEV_PROVIDER_KEY_ENCRYPTION_KEY, readConfig } from './config.js';

const base = {
  MONGO_URL: 'mongodb://127.0.0.1:1',
  NATS_URL: 'nats://127.0.0.1:1',
  REDIS_URL: 'redis://127.0.0.1:1',
};

describe('parcel-tracking config', () => {
  it('uses the development encryption key only outside production', () => {
    expect(readConfig(base).PROVIDER_KEY_ENCRYPTION_KEY).toBe(DEV_PROVIDER_KEY_ENCRYPTION_KEY);
    expect(() => readConfig({ ...base, NODE_ENV: 'production' })).toThrow(
      /PROVIDER_KEY_ENCRYPTION_KEY: is required in production/,
    );
    const key = randomBytes(32).toString('base64');
    expect(
      readConfig({ ...base, NODE_ENV: 'production', PROVIDER_KEY_ENCRYPTION_KEY: key })
        .PROVIDER_KEY_ENCRYPTION_KEY,
    ).toBe(key);
  });

  it('refuses a key that is not 32 bytes and a provider URL that is not http(s)', () => {
    expect(() =>
      readConfig({ ...base, PROVIDER_KEY_ENCRYPTION_KEY: randomBytes(16).toString('base64') }),
    ).toThrow(/32 bytes/);
    expect(() => readConfig({ ...base, PROVIDER_BASE_URL: 'ftp://x' })).toThrow(
      /PROVIDER_BASE_URL/,
    );
  });

  it('requires a redis:// or rediss:// REDIS_URL (the shared pacing window)', () => {
    const { REDIS_URL: _omitted, ...withoutRedis } = base;
    expect(() => readConfig(withoutRedis)).toThrow(/REDIS_URL: is required but missing/);
    expect(() => readConfig({ ...base, REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
    expect(readConfig({ ...base, REDIS_URL: 'rediss://cache:6380' }).REDIS_URL).toBe(
      'rediss://cache:6380',
    );
  });
});
